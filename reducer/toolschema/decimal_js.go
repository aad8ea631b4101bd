//go:build js

package toolschema

import (
	"math"
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// decimal is, in the js/wasm build, a JSON number as a float64: exact
// decimal arithmetic (decimal.go) would take the WebAssembly module past
// its size budget. float64 judges the numbers tool arguments carry alike;
// where it cannot tell, as for a multipleOf past its precision, the value
// passes.
type decimal struct {
	f float64
	_ [0]func() // not comparable: no equality function in the module
}

// parseDecimal reads the text of a valid JSON number (±Inf past float64's
// range).
func parseDecimal(n jsontree.Number) decimal {
	f, _ := strconv.ParseFloat(string(n), 64)
	return decimal{f: f}
}

// integer reports whether d has no fractional part.
func (d decimal) integer() bool { return d.f == math.Trunc(d.f) }

func (d decimal) sign() int {
	switch {
	case d.f > 0:
		return 1
	case d.f < 0:
		return -1
	}
	return 0
}

// cmp compares a and b: -1, 0 or +1.
func (a decimal) cmp(b decimal) int {
	switch {
	case a.f < b.f:
		return -1
	case a.f > b.f:
		return 1
	}
	return 0
}

// multipleOf reports whether x is an integer multiple of the positive m;
// known is false when float64 cannot tell (the check is then skipped
// rather than guessed).
func multipleOf(x, m decimal) (yes, known bool) {
	q := x.f / m.f
	if math.IsInf(q, 0) || math.IsNaN(q) {
		return false, !math.IsInf(x.f, 0) && !math.IsInf(m.f, 0)
	}
	if math.Abs(q) >= 1<<53 {
		return false, false
	}
	// The quotient of two decimals that divide exactly can land a few
	// ulps off an integer (0.0075 / 0.0001 = 74.99999999999999).
	return math.Abs(q-math.Round(q)) <= 1e-9*math.Max(1, math.Abs(q)), true
}

// smallInt returns d as an int when it is an integer in [0, 10^9).
func (d decimal) smallInt() (int, bool) {
	if !d.integer() || d.f < 0 || d.f >= 1e9 {
		return 0, false
	}
	return int(d.f), true
}
