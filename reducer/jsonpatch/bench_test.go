package jsonpatch

import (
	"strconv"
	"strings"
	"testing"

	v5 "github.com/evanphx/json-patch/v5"
)

// benchState returns a state document of roughly size bytes: an object with
// a deep counter, a log array, and then many keyed records, some of which
// hold big arrays.
func benchState(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"counters":{"a":{"b":{"c":{"n":0}}}},"log":[],"records":{`)
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i)
		b.WriteString(`"rec-` + n + `":{"id":` + n + `,"title":"Record ` + n + `","tags":["a","b"]`)
		if i%50 == 49 {
			b.WriteString(`,"samples":[`)
			for j := range 500 {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(j))
			}
			b.WriteByte(']')
		}
		b.WriteByte('}')
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

const benchPatch = `[
	{"op":"replace","path":"/counters/a/b/c/n","value":42},
	{"op":"add","path":"/log/-","value":{"t":1,"msg":"tick"}}
]`

var benchSizes = []struct {
	name string
	size int
}{{"1KB", 1 << 10}, {"1MB", 1 << 20}}

func BenchmarkApply(b *testing.B) {
	ops, err := Decode(parse(b, benchPatch))
	if err != nil {
		b.Fatal(err)
	}
	for _, bs := range benchSizes {
		for _, record := range []bool{false, true} {
			name := bs.name
			var rec Recorder
			if record {
				name += "/record"
				rec = func(Change) {}
			}
			b.Run(name, func(b *testing.B) {
				doc := parse(b, string(benchState(bs.size)))
				b.ReportAllocs()
				for b.Loop() {
					if doc, err = Apply(doc, ops, rec); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkApplyRollback measures a patch that fails at its last op.
func BenchmarkApplyRollback(b *testing.B) {
	ops, err := Decode(parse(b, `[
		{"op":"replace","path":"/counters/a/b/c/n","value":42},
		{"op":"add","path":"/log/-","value":{"t":1,"msg":"tick"}},
		{"op":"test","path":"/counters/a/b/c/n","value":0}
	]`))
	if err != nil {
		b.Fatal(err)
	}
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			doc := parse(b, string(benchState(bs.size)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Apply(doc, ops, nil); err == nil {
					b.Fatal("patch did not fail")
				}
			}
		})
	}
}

// BenchmarkV5Apply is the same patch with evanphx/json-patch/v5, which
// works on encoded documents and so re-reads the whole state every time.
func BenchmarkV5Apply(b *testing.B) {
	p, err := v5.DecodePatch([]byte(benchPatch))
	if err != nil {
		b.Fatal(err)
	}
	opts := v5.NewApplyOptions()
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			doc := benchState(bs.size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.ApplyWithOptions(doc, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
