package partialjson

import (
	"encoding/json"
	"testing"
)

// FuzzWrite writes data in pieces whose sizes come from splits (a zero
// size is an empty write) and checks after every write that the edits
// replay to Value and that Value matches the reference; for valid JSON it
// checks the final value against encoding/json.
func FuzzWrite(f *testing.F) {
	for _, doc := range handwritten {
		f.Add([]byte(doc), []byte{1, 2, 3, 5, 8, 13})
		f.Add([]byte(doc), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	}
	f.Add([]byte(`{"a":1,"b":x`), []byte{4, 0, 3})
	f.Add([]byte(`[1,2]x`), []byte{2})
	f.Add([]byte(`{"s":"\ud83d\ude00"}`), []byte{6, 6, 1})
	f.Add([]byte("[\"\xf0\x9f\x98\x80\"]"), []byte{3, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte, splits []byte) {
		p := New(Options{})
		var rp replayer
		var editErr error
		emit := func(e Edit) {
			if err := rp.apply(e); err != nil && editErr == nil {
				editErr = err
			}
		}
		check := func(n int, closed bool) {
			t.Helper()
			got := encode(p.Value())
			if editErr != nil {
				t.Fatalf("after %d bytes: bad edit: %v", n, editErr)
			}
			if replayed := encode(rp.root, rp.present); replayed != got {
				t.Fatalf("after %d bytes: replayed edits = %s, Value = %s", n, replayed, got)
			}
			ref, failed := refEncode(string(data[:n]), closed, 0)
			if ref != got {
				t.Fatalf("after %d bytes: Value = %s, reference = %s", n, got, ref)
			}
			if failed != (p.Err() != nil) {
				t.Fatalf("after %d bytes: Err = %v, reference failed: %v", n, p.Err(), failed)
			}
		}
		n := 0
		for k := 0; n < len(data); k++ {
			size := len(data) - n
			if k < len(splits) {
				size = min(size, int(splits[k]%32))
			}
			p.Write(string(data[n:n+size]), emit)
			n += size
			if k < 64 || n == len(data) {
				check(n, false)
			}
		}
		p.Close(emit)
		check(n, true)
		if json.Valid(data) {
			if p.Err() != nil || !p.Complete() {
				t.Fatalf("valid input: Err = %v, Complete = %v", p.Err(), p.Complete())
			}
			v, _ := p.Value()
			if ok, msg := sameAsStd(v, data); !ok {
				t.Fatal(msg)
			}
		}
	})
}
