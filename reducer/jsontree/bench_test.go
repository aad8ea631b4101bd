package jsontree

import (
	"bytes"
	"strconv"
	"testing"
)

// benchDoc returns a state-like JSON document of roughly size bytes: keyed
// records with strings (some non-ASCII or escaped), numbers, booleans and
// small arrays.
func benchDoc(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"threadId":"thread-1","counters":{"a":{"b":{"c":{"n":0}}}},"records":{`)
	for i := 0; b.Len() < size-64; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i)
		b.WriteString(`"rec-` + n + `":{"id":` + n + `,"title":"Record ` + n + ` — café \"quoted\"",` +
			`"done":` + strconv.FormatBool(i%3 == 0) + `,"score":` + n + `.25,"tags":["alpha","beta",null]}`)
	}
	b.WriteString(`},"log":[]}`)
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name string
		size int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		data := benchDoc(bc.size)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data, ParseOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	for _, bc := range []struct {
		name string
		size int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		data := benchDoc(bc.size)
		v, err := Parse(data, ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				buf = AppendJSON(buf[:0], v)
			}
		})
	}
}
