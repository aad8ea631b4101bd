package main

import (
	"strconv"
	"testing"
)

// FuzzParseDropAfter: a -drop-after value is read as 0 <= N <= M (a range
// only from N > 0) that prints back to an equivalent value, or refused;
// never a panic. (The run ids and frame ids the demo's runs carry are the
// relay's: relay.FuzzEventID; the store's accounting: memstore.FuzzBounds.)
func FuzzParseDropAfter(f *testing.F) {
	for _, s := range []string{"0", "3", "3-15", "15-3", "0-4", "-1", "a-b", " 7 ", "1-", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		lo, hi, err := parseDropAfter(v)
		if err != nil {
			return
		}
		if lo < 0 || hi < lo || hi > lo && lo == 0 {
			t.Fatalf("%q read as %d-%d", v, lo, hi)
		}
		back := strconv.Itoa(lo)
		if hi != lo {
			back += "-" + strconv.Itoa(hi)
		}
		if lo2, hi2, err := parseDropAfter(back); err != nil || lo2 != lo || hi2 != hi {
			t.Fatalf("%q read as %d-%d, %q as %d-%d (%v)", v, lo, hi, back, lo2, hi2, err)
		}
	})
}
