package jsontree

import (
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/internal/utf8seq"
)

// AppendJSON appends the compact JSON encoding of v to dst and returns the
// extended buffer. Object keys come out in insertion order and strings are
// escaped as by AppendString. A Number is written as its text, which must
// therefore be a valid JSON number. Anything that is not a Value (and a nil
// *Array or *Object) is written as null, since AppendJSON cannot fail.
//
// The walk is iterative, so arbitrarily deep trees are safe.
func AppendJSON(dst []byte, v Value) []byte {
	type frame struct {
		arr *Array
		obj *Object
		i   int // next member to write
	}
	var buf [16]frame
	stack := buf[:0]
	for {
		switch x := v.(type) {
		case nil:
			dst = append(dst, "null"...)
		case bool:
			if x {
				dst = append(dst, "true"...)
			} else {
				dst = append(dst, "false"...)
			}
		case Number:
			dst = append(dst, x...)
		case string:
			dst = AppendString(dst, x)
		case *Array:
			switch {
			case x == nil:
				dst = append(dst, "null"...)
			case len(x.Elems) == 0:
				dst = append(dst, "[]"...)
			default:
				dst = append(dst, '[')
				stack = append(stack, frame{arr: x, i: 1})
				v = x.Elems[0]
				continue
			}
		case *Object:
			switch {
			case x == nil:
				dst = append(dst, "null"...)
			case len(x.keys) == 0:
				dst = append(dst, "{}"...)
			default:
				dst = append(dst, '{')
				dst = AppendString(dst, x.keys[0])
				dst = append(dst, ':')
				stack = append(stack, frame{obj: x, i: 1})
				v = x.vals[0]
				continue
			}
		default:
			dst = append(dst, "null"...)
		}

		// The value is written; move to the next member, closing every
		// container that has none left.
		for {
			if len(stack) == 0 {
				return dst
			}
			f := &stack[len(stack)-1]
			if f.arr != nil {
				if f.i < len(f.arr.Elems) {
					dst = append(dst, ',')
					v = f.arr.Elems[f.i]
					f.i++
					break
				}
				dst = append(dst, ']')
			} else {
				if f.i < len(f.obj.keys) {
					dst = append(dst, ',')
					dst = AppendString(dst, f.obj.keys[f.i])
					dst = append(dst, ':')
					v = f.obj.vals[f.i]
					f.i++
					break
				}
				dst = append(dst, '}')
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// AppendString appends s as a quoted JSON string, escaped as JSON.stringify
// does: '"', '\\' and control characters below U+0020 are escaped (\b \f \n
// \r \t or \u00xx); '<', '>', '&', U+2028 and U+2029 are not. A lone
// UTF-16 surrogate held as WTF-8 (what Parse makes of an unpaired \udxxx
// escape) is written as that escape; other invalid UTF-8, which a Value
// should not hold, is replaced by U+FFFD so the output is always valid JSON.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time, as str reads them (the test
		// may stop at a plain word, never pass a byte to escape).
		for i+8 <= len(s) && plainWord(le64s(s[i:])) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plainASCII[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		n, ok := utf8seq.Len(s, i)
		if !ok {
			dst = append(dst, s[start:i]...)
			if c == 0xED && i+2 < len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
				// A lone surrogate (WTF-8), written as JSON.stringify
				// writes one.
				r := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				dst = append(dst, '\\', 'u', hex[r>>12], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
				n = 3
			} else {
				dst = append(dst, "\uFFFD"...)
			}
			start = i + n
		}
		i += n
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendPointerToken appends key escaped as a JSON Pointer (RFC 6901)
// reference token: "~" as "~0", "/" as "~1".
func AppendPointerToken(dst []byte, key string) []byte {
	for i := 0; i < len(key); i++ {
		switch c := key[i]; c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
