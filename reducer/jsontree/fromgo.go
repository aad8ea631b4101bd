package jsontree

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/internal/utf8seq"
)

// Codes reported in ConvertError.Code.
const (
	CodeUnsupportedType  = "unsupported_type"  // a Go type FromGo does not know
	CodeUnsupportedValue = "unsupported_value" // NaN or an infinity
	CodeInvalidNumber    = "invalid_number"    // a Number or json.Number that is not JSON
)

// A ConvertError describes why FromGo could not convert a Go value.
type ConvertError struct {
	Code string // one of the Code constants, or CodeTooDeep
	Msg  string
}

func (e *ConvertError) Error() string { return "jsontree: " + e.Msg }

// jsonNumber is the method set of encoding/json's Number. Matching it
// instead of naming the type keeps encoding/json (and, through fmt, os and
// syscall/js) out of the WebAssembly module, which never calls FromGo.
type jsonNumber interface {
	String() string
	Float64() (float64, error)
	Int64() (int64, error)
}

// FromGo converts a Go value of the kind encoding/json produces into a
// Value: nil, bool, string, float64 (and the other integer and float
// types), json.Number, []any and map[string]any, nested freely. Map keys
// are inserted in sorted order, as encoding/json would print them. Values
// that already are Values (Number, *Array, *Object) are accepted and deep
// copied. Floats are formatted as JSON.stringify formats them. Invalid UTF-8
// in strings is replaced by U+FFFD.
//
// Nesting is limited to DefaultMaxDepth, which also stops cyclic inputs.
func FromGo(v any) (Value, error) {
	return fromGo(v, 0)
}

func fromGo(v any, depth int) (Value, error) {
	if depth > DefaultMaxDepth {
		return nil, &ConvertError{Code: CodeTooDeep, Msg: "value nests deeper than " + strconv.Itoa(DefaultMaxDepth)}
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return x, nil
	case string:
		return validString(x), nil
	case Number:
		return checkNumber(string(x))
	case jsonNumber:
		return checkNumber(x.String())
	case float64:
		return formatFloat(x, 64)
	case float32:
		return formatFloat(float64(x), 32)
	case int:
		return Number(strconv.FormatInt(int64(x), 10)), nil
	case int8:
		return Number(strconv.FormatInt(int64(x), 10)), nil
	case int16:
		return Number(strconv.FormatInt(int64(x), 10)), nil
	case int32:
		return Number(strconv.FormatInt(int64(x), 10)), nil
	case int64:
		return Number(strconv.FormatInt(x, 10)), nil
	case uint:
		return Number(strconv.FormatUint(uint64(x), 10)), nil
	case uint8:
		return Number(strconv.FormatUint(uint64(x), 10)), nil
	case uint16:
		return Number(strconv.FormatUint(uint64(x), 10)), nil
	case uint32:
		return Number(strconv.FormatUint(uint64(x), 10)), nil
	case uint64:
		return Number(strconv.FormatUint(x, 10)), nil
	case []any:
		return arrayFromGo(x, depth)
	case *Array:
		if x == nil {
			return nil, nil
		}
		return arrayFromGo(x.Elems, depth)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o := NewObject(len(keys))
		for _, k := range keys {
			e, err := fromGo(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(validString(k), e)
		}
		return o, nil
	case *Object:
		if x == nil {
			return nil, nil
		}
		o := NewObject(x.Len())
		for i, k := range x.keys {
			e, err := fromGo(x.vals[i], depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(k, e)
		}
		return o, nil
	}
	return nil, &ConvertError{Code: CodeUnsupportedType, Msg: "cannot convert Go value of this type to JSON"}
}

func arrayFromGo(elems []any, depth int) (Value, error) {
	a := &Array{Elems: make([]Value, len(elems))}
	for i, e := range elems {
		v, err := fromGo(e, depth+1)
		if err != nil {
			return nil, err
		}
		a.Elems[i] = v
	}
	return a, nil
}

func checkNumber(s string) (Value, error) {
	if end, code := scanNumber(s, 0); code != "" || end != len(s) {
		return nil, &ConvertError{Code: CodeInvalidNumber, Msg: "invalid JSON number " + strconv.Quote(s)}
	}
	return Number(s), nil
}

// formatFloat formats f as JSON.stringify (and encoding/json) would.
func formatFloat(f float64, bits int) (Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &ConvertError{Code: CodeUnsupportedValue, Msg: "unsupported float value " + strconv.FormatFloat(f, 'g', -1, 64)}
	}
	if f == 0 {
		return Number("0"), nil // JSON.stringify(-0) is "0"
	}
	abs := math.Abs(f)
	format := byte('f')
	if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, bits)
	if format == 'e' {
		// Shorten e-07 to e-7, as JavaScript does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return Number(b), nil
}

// validString replaces ill-formed UTF-8 in s the way Parse does.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		n, ok := utf8seq.Len(s, i)
		if ok {
			b = append(b, s[i:i+n]...)
		} else {
			b = append(b, "\uFFFD"...)
		}
		i += n
	}
	return string(b)
}
