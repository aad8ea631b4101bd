package sse

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// FuzzFeed checks that no input makes the parser panic, that it agrees with
// the reference implementation, and that splitting the input at points
// chosen from seed changes nothing, with and without a small size limit.
func FuzzFeed(f *testing.F) {
	for _, tt := range parserTests {
		f.Add([]byte(tt.in), int64(len(tt.in)))
	}
	for i, s := range splitStreams {
		f.Add([]byte(s.in), int64(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		events, errs := ParseAll(data)
		refEvents, _, _ := refParse(data)
		if len(data) < DefaultMaxEventSize && (errs != nil || !reflect.DeepEqual(events, refEvents)) {
			t.Fatalf("ParseAll = %+v, %v\nreference = %+v", events, errs, refEvents)
		}

		r := rand.New(rand.NewPCG(uint64(seed), uint64(len(data))))
		chunks := randomSplit(r, data)
		whole := [][]byte{data}
		for _, opt := range []Options{{}, {MaxEventSize: 1 + r.IntN(64)}} {
			want := feedChunks(opt, whole)
			if got := feedChunks(opt, chunks); !reflect.DeepEqual(got, want) {
				t.Fatalf("MaxEventSize %d, chunks %q:\ngot  %+v\nwant %+v", opt.MaxEventSize, chunks, got, want)
			}
		}
	})
}
