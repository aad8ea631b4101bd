package reducer

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByPos: the heapsort that orders cited messages agrees with
// slices.SortFunc for every length up to 40 and shuffled distinct
// positions, and keeps ties' positions in order.
func TestSortByPos(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 40; n++ {
		for range 20 {
			ms := make([]*Message, n)
			for i := range ms {
				ms[i] = &Message{pos: i * 3}
			}
			r.Shuffle(n, func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
			want := slices.Clone(ms)
			slices.SortFunc(want, func(a, b *Message) int { return a.pos - b.pos })
			sortByPos(ms)
			if !slices.Equal(ms, want) {
				t.Fatalf("n=%d: positions out of order", n)
			}
		}
	}
	ties := []*Message{{pos: 2}, {pos: 1}, {pos: 2}, {pos: 0}, {pos: 1}}
	sortByPos(ties)
	if !slices.IsSortedFunc(ties, func(a, b *Message) int { return a.pos - b.pos }) {
		t.Fatal("ties: positions out of order")
	}
}
