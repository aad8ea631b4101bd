package partialjson

// numState is the position inside a number, following the JSON grammar
//
//	-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?
type numState uint8

const (
	numMinus numState = iota // after '-'
	numZero                  // after a leading 0
	numInt                   // in the integer digits
	numDot                   // after '.'
	numFrac                  // in the fraction digits
	numE                     // after 'e' or 'E'
	numESign                 // after the exponent sign
	numExp                   // in the exponent digits
)

// numStart returns the state after the first byte of a number, which is
// '-' or a digit.
func numStart(c byte) numState {
	switch c {
	case '-':
		return numMinus
	case '0':
		return numZero
	}
	return numInt
}

// next returns the state after c and whether c continues the number.
func (s numState) next(c byte) (numState, bool) {
	digit := '0' <= c && c <= '9'
	switch s {
	case numMinus:
		if c == '0' {
			return numZero, true
		}
		if digit {
			return numInt, true
		}
	case numZero, numInt:
		switch {
		case digit && s == numInt:
			return numInt, true
		case c == '.':
			return numDot, true
		case c == 'e' || c == 'E':
			return numE, true
		}
	case numDot, numFrac:
		if digit {
			return numFrac, true
		}
		if s == numFrac && (c == 'e' || c == 'E') {
			return numE, true
		}
	case numE:
		if c == '+' || c == '-' {
			return numESign, true
		}
		if digit {
			return numExp, true
		}
	case numESign, numExp:
		if digit {
			return numExp, true
		}
	}
	return s, false
}

// complete reports whether the number read so far is a whole number.
func (s numState) complete() bool {
	return s == numZero || s == numInt || s == numFrac || s == numExp
}
