package toolschema

import "github.com/agui-reducer/agui/reducer/jsontree"

// decimal is a JSON number read exactly: (-1)^neg × 0.digits × 10^point,
// digits without leading or trailing zeros (empty for zero). Schema limits
// and instance numbers compare exactly, as a big-rational validator does:
// 3.0000000000000001 is above a maximum of 3 though no float64 can tell.
type decimal struct {
	neg    bool
	digits string
	point  int
	_      [0]func() // not comparable: no equality function in the module
}

// parseDecimal reads the text of a valid JSON number.
func parseDecimal(n jsontree.Number) decimal {
	s := string(n)
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	var buf []byte
	intDigits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		buf = append(buf, s[i])
		intDigits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			buf = append(buf, s[i])
		}
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if exp < 1<<30 {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	lead := 0
	for lead < len(buf) && buf[lead] == '0' {
		lead++
	}
	end := len(buf)
	for end > lead && buf[end-1] == '0' {
		end--
	}
	if lead == end {
		return decimal{} // zero, whatever its sign
	}
	d.digits = string(buf[lead:end])
	d.point = intDigits - lead + exp
	return d
}

func (d decimal) zero() bool { return d.digits == "" }

// integer reports whether d has no fractional part.
func (d decimal) integer() bool { return len(d.digits) <= d.point || d.zero() }

// cmp compares a and b: -1, 0 or +1.
func (a decimal) cmp(b decimal) int {
	if a.zero() || b.zero() || a.neg != b.neg {
		return max(-1, min(1, a.sign()-b.sign()))
	}
	m := a.cmpAbs(b)
	if a.neg {
		return -m
	}
	return m
}

func (d decimal) sign() int {
	switch {
	case d.zero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

func (a decimal) cmpAbs(b decimal) int {
	if a.point != b.point {
		if a.point < b.point {
			return -1
		}
		return 1
	}
	for i := 0; i < len(a.digits) || i < len(b.digits); i++ {
		var x, y byte = '0', '0'
		if i < len(a.digits) {
			x = a.digits[i]
		}
		if i < len(b.digits) {
			y = b.digits[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// mantissa returns d's digits as an integer m and its exponent e (d = ±m ×
// 10^e, m not divisible by 10); ok is false past 18 digits.
func (d decimal) mantissa() (m uint64, e int, ok bool) {
	if len(d.digits) > 18 {
		return 0, 0, false
	}
	for i := 0; i < len(d.digits); i++ {
		m = m*10 + uint64(d.digits[i]-'0')
	}
	return m, d.point - len(d.digits), true
}

// multipleOf reports whether x is an integer multiple of the positive m;
// known is false when the numbers are too long to decide exactly (the
// check is then skipped rather than guessed).
func multipleOf(x, m decimal) (yes, known bool) {
	if x.zero() {
		return true, true
	}
	a, e1, ok1 := x.mantissa()
	b, e2, ok2 := m.mantissa()
	if !ok1 || !ok2 || b == 0 {
		return false, false
	}
	// x/m = (a/b) × 10^(e1-e2). a has no factor 10, so for e1 < e2 the
	// quotient cannot be an integer.
	if e1 < e2 {
		return false, true
	}
	if e1-e2 > 100000 {
		return false, false
	}
	r := a % b
	for k := e1 - e2; k > 0 && r != 0; k-- {
		r = r * 10 % b // r < b < 10^18: no overflow
	}
	return r == 0, true
}

// smallInt returns d as an int when it is an integer in [0, 10^9).
func (d decimal) smallInt() (int, bool) {
	if !d.integer() || d.neg || d.point > 9 {
		return 0, false
	}
	m, e, _ := d.mantissa()
	for ; e > 0; e-- {
		m *= 10
	}
	return int(m), true
}
