package jsontree

import (
	"bytes"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// CodeNotObject is the SyntaxError code with which ScanObject rejects input
// that is valid JSON but not an object.
const CodeNotObject = "not_object"

// ScanObject validates data as exactly one JSON object, optionally
// surrounded by whitespace, and calls fn for each of its members in input
// order, without building a tree.
//
// Validation is that of Parse, with the same error codes, offsets and
// messages: all of data must be valid JSON, including member values that
// are only skipped, and nesting deeper than opt.MaxDepth (the object itself
// counting as one level) is CodeTooDeep. Input that Parse accepts but that
// is not an object is rejected with CodeNotObject, reported at the offset
// where the value starts.
//
// fn receives the member's key, decoded as Parse decodes it, and the raw
// text of its value: a subslice of data, already validated and without
// surrounding whitespace, which [KindOf], [UnquoteString], [AppendUnquoted]
// and Parse accept. The key slice is only valid during the call (it may
// point into a scratch buffer that the next key reuses) and must not be
// modified; switch string(key) or compare it without allocating, and copy
// it to keep it. Keys are delivered as they come: a duplicated key is seen
// once per occurrence (Parse keeps the first position and the last value).
//
// Members are delivered while scanning, so when data is invalid further
// on, fn has already seen the members before the error; act on what fn
// gathered only once ScanObject has returned nil. If fn returns an error,
// scanning stops and ScanObject returns that error unchanged.
//
// ScanObject allocates nothing unless a key has escapes or invalid UTF-8
// (one reused scratch buffer), the value nests deeper than 256 levels, or
// it returns a *SyntaxError.
func ScanObject(data []byte, opt ParseOptions, fn func(key, value []byte) error) error {
	p := parser{data: data, maxDepth: opt.MaxDepth}
	// The object itself is one level; maxDepth is at least one.
	if err := p.open('{', CodeNotObject, "an object"); err != nil {
		return err
	}
	if data[p.pos] != '}' {
		for {
			// A key starts at p.pos.
			if p.pos >= len(data) || data[p.pos] != '"' {
				return p.keyError()
			}
			key, err := p.str()
			if err != nil {
				return err
			}
			if err := p.colon(); err != nil {
				return err
			}
			value, err := p.member()
			if err != nil {
				return err
			}
			if err := fn(key, value); err != nil {
				return err
			}
			done, err := p.next('}', true)
			if err != nil {
				return err
			}
			if done {
				break
			}
		}
	}
	p.pos++ // the closing '}'
	return p.trailing()
}

// CodeNotArray is the SyntaxError code with which ScanArray rejects input
// that is valid JSON but not an array.
const CodeNotArray = "not_array"

// ScanArray is ScanObject for an array: it validates data as exactly one
// JSON array, optionally surrounded by whitespace, and calls fn with the
// raw text of each element in order (a subslice of data, validated, without
// surrounding whitespace). Validation, depth (the array counting as one
// level) and errors are those of Parse; input that Parse accepts but that is
// not an array is rejected with CodeNotArray. As with ScanObject, act on
// what fn gathered only once ScanArray has returned nil; an error from fn
// stops the scan and is returned unchanged.
//
// ScanArray allocates nothing unless an element nests deeper than 256
// levels or it returns a *SyntaxError.
func ScanArray(data []byte, opt ParseOptions, fn func(elem []byte) error) error {
	p := parser{data: data, maxDepth: opt.MaxDepth}
	if err := p.open('[', CodeNotArray, "an array"); err != nil {
		return err
	}
	if data[p.pos] != ']' {
		for {
			// An element starts at p.pos.
			elem, err := p.member()
			if err != nil {
				return err
			}
			if err := fn(elem); err != nil {
				return err
			}
			done, err := p.next(']', false)
			if err != nil {
				return err
			}
			if done {
				break
			}
		}
	}
	p.pos++ // the closing ']'
	return p.trailing()
}

// member skips the value that starts at p.pos, an object's member or an
// array's element, and returns its text. A string, the commonest member,
// skips without skipValue's setup.
func (p *parser) member() ([]byte, error) {
	start := p.pos
	var err error
	if p.pos < len(p.data) && p.data[p.pos] == '"' {
		err = p.skipStr()
	} else {
		err = p.skipValue(1)
	}
	return p.data[start:p.pos], err
}

// next moves past the comma after a member and the whitespace that
// follows, or reports with done that the container ends at p.pos (closer).
// inObject words the error for anything else.
func (p *parser) next(closer byte, inObject bool) (done bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.errorf(CodeUnexpectedEnd, "unexpected end of input")
	}
	switch c := p.data[p.pos]; c {
	case closer:
		return true, nil
	case ',':
		p.pos++
		p.skipSpace()
		return false, nil
	default:
		return false, p.afterValueError(inObject, c)
	}
}

// open starts a scan of data as one container opened by opener: it skips
// leading whitespace and the opener, leaving p.pos on what follows it.
// Input that is valid JSON of another kind fails with code ("JSON value is
// a string, not " + what), invalid input with Parse's error.
func (p *parser) open(opener byte, code, what string) error {
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return p.errorf(CodeEmpty, "no JSON value")
	}
	if p.data[p.pos] != opener {
		start := p.pos
		if err := p.skipValue(0); err != nil {
			return err
		}
		if err := p.trailing(); err != nil {
			return err
		}
		p.pos = start
		return p.errorf(code, "JSON value is "+KindOf(p.data[start:]).String()+", not "+what)
	}
	p.pos++
	p.skipSpace()
	if p.pos >= len(p.data) {
		return p.errorf(CodeUnexpectedEnd, "unexpected end of input")
	}
	return nil
}

// trailing checks that only whitespace follows the top-level value.
func (p *parser) trailing() error {
	p.skipSpace()
	if p.pos < len(p.data) {
		return p.errorf(CodeTrailingData, "invalid character "+quoteByte(p.data[p.pos])+" after top-level value")
	}
	return nil
}

// skipValue validates the value starting at p.pos, where whitespace has
// been skipped, and leaves p.pos just after it. It reports the errors Parse
// would, for a value nested inside depth open containers.
//
// Nothing is built, so instead of Parse's stack of frames skipValue only
// remembers, for each container it has opened and not yet closed, whether
// it is an object: one bit per level.
func (p *parser) skipValue(depth int) error {
	data := p.data
	var kindBuf [4]uint64 // bit n is set when container n is an object
	kinds := kindBuf[:]
	n := 0 // containers open inside this value
	for {
		// A value starts at p.pos; whitespace has been skipped.
		if p.pos >= len(data) {
			return p.errorf(CodeUnexpectedEnd, "unexpected end of input, expected a value")
		}
		switch c := data[p.pos]; c {
		case '[', '{':
			if depth+n >= p.maxDepth {
				return p.errorf(CodeTooDeep, "nesting deeper than "+strconv.Itoa(p.maxDepth))
			}
			p.pos++
			p.skipSpace()
			if p.pos >= len(data) {
				return p.errorf(CodeUnexpectedEnd, "unexpected end of input")
			}
			if c == '[' {
				if data[p.pos] == ']' {
					p.pos++
					break
				}
			} else if data[p.pos] == '}' {
				p.pos++
				break
			}
			w, bit := n>>6, uint64(1)<<(n&63)
			if w == len(kinds) {
				kinds = append(kinds, 0)
			}
			n++
			if c == '[' {
				kinds[w] &^= bit
				continue
			}
			kinds[w] |= bit
			if err := p.skipKey(); err != nil {
				return err
			}
			continue
		case '"':
			if err := p.skipStr(); err != nil {
				return err
			}
		case 't':
			if err := p.literal("true"); err != nil {
				return err
			}
		case 'f':
			if err := p.literal("false"); err != nil {
				return err
			}
		case 'n':
			if err := p.literal("null"); err != nil {
				return err
			}
		default:
			end, code := scanNumber(data, p.pos)
			if code != "" {
				return p.numberError(end, code)
			}
			p.pos = end
		}

		// A value is complete: close containers for as long as they end
		// here.
		for {
			if n == 0 {
				return nil
			}
			isObj := kinds[(n-1)>>6]&(1<<((n-1)&63)) != 0
			p.skipSpace()
			if p.pos >= len(data) {
				return p.errorf(CodeUnexpectedEnd, "unexpected end of input")
			}
			c := data[p.pos]
			if c == ',' {
				p.pos++
				p.skipSpace()
				if isObj {
					if err := p.skipKey(); err != nil {
						return err
					}
				}
				break
			}
			if isObj && c == '}' || !isObj && c == ']' {
				p.pos++
				n--
				continue
			}
			return p.afterValueError(isObj, c)
		}
	}
}

// StringEnd returns the index of the quote that closes the JSON string
// whose content starts at data[i] (just after its opening quote), and
// whether the content holds an escape (then it needs decoding) or a byte
// above 0x7F (then it needs UTF-8 validation). end is -1 at a control byte
// or when data ends first. Escapes are skipped, not validated. It reads
// eight bytes at a time (the streamed tokens' fast paths scan their id and
// delta with it; in WebAssembly a loop over single bytes is slow).
func StringEnd(data []byte, i int) (end int, escaped, high bool) {
	for {
		// Eight plain bytes at a time; a word the test stops at goes to
		// the byte loop, which is exact.
		for i+8 <= len(data) && plainWord(le64(data[i:])) {
			i += 8
		}
		for stop := min(i+8, len(data)); i < stop; i++ {
			switch c := data[i]; {
			case c == '"':
				return i, escaped, high
			case c == '\\':
				escaped = true
				i++
			case c < 0x20:
				return -1, false, false
			case c >= utf8.RuneSelf:
				high = true
			}
		}
		if i >= len(data) {
			return -1, false, false
		}
	}
}

// HasPrefix reports whether data begins with prefix, as bytes.HasPrefix
// does, comparing eight bytes at a time: the fast paths match fixed
// layouts this way on nearly every event, and in WebAssembly
// bytes.HasPrefix compares one byte at a time.
func HasPrefix(data []byte, prefix string) bool {
	if len(data) < len(prefix) {
		return false
	}
	i := 0
	for ; i+8 <= len(prefix); i += 8 {
		if le64(data[i:]) != le64s(prefix[i:]) {
			return false
		}
	}
	for ; i < len(prefix); i++ {
		if data[i] != prefix[i] {
			return false
		}
	}
	return true
}

// skipKey is key for skipValue: it validates the key and the colon.
func (p *parser) skipKey() error {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return p.keyError()
	}
	if err := p.skipStr(); err != nil {
		return err
	}
	return p.colon()
}

// skipStr validates the string starting at the quote at p.pos and leaves
// p.pos after its closing quote, reporting the errors str would. Invalid
// UTF-8 is not an error (str replaces it), so bytes above 0x7F need no
// attention.
func (p *parser) skipStr() error {
	data := p.data
	i := p.pos + 1
	for {
		// Find the next '"', '\\' or control byte eight bytes at a time.
		// A byte is flagged when it is below 0x20 or equal to '"' or '\\'
		// and its top bit is clear; borrows can flag bytes above a true
		// match but never below one, so the lowest flagged byte is exact.
		for i+8 <= len(data) {
			w := le64(data[i:])
			if m := ((w - lo20) | ((w ^ qq) - lo01) | ((w ^ bsbs) - lo01)) &^ w & hi80; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			i += 8
		}
		for i < len(data) && (plainASCII[data[i]] || data[i] >= 0x80) {
			i++
		}
		if i >= len(data) {
			p.pos = len(data)
			return p.stringEndError()
		}
	special:
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(data) {
				p.pos = len(data)
				return p.errorf(CodeUnexpectedEnd, "unexpected end of input in string escape")
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, err := p.hex4(i + 2); err != nil {
					return err
				}
				i += 6
			default:
				p.pos = i + 1
				return p.badEscapeError(e)
			}
		default: // a control byte
			p.pos = i
			return p.controlError(c)
		}
	}
}

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON value. KindInvalid is the zero Kind, for text that
// starts no JSON value.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

var kindNames = [...]string{"invalid", "null", "bool", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// KindOf reports the kind of the JSON value in raw, such as a value span
// passed by ScanObject, from its first byte alone; raw is not validated.
// It returns KindInvalid for empty raw or a byte that starts no value
// (including whitespace).
func KindOf(raw []byte) Kind {
	if len(raw) == 0 {
		return KindInvalid
	}
	switch c := raw[0]; c {
	case 'n':
		return KindNull
	case 't', 'f':
		return KindBool
	case '"':
		return KindString
	case '[':
		return KindArray
	case '{':
		return KindObject
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return KindNumber
		}
	}
	return KindInvalid
}

// UnquoteString decodes the JSON string raw, quotes included and nothing
// around them, such as a value span passed by ScanObject, exactly as Parse
// decodes strings: escapes are resolved, surrogate pairs joined, unpaired
// surrogates and invalid UTF-8 replaced by U+FFFD. The result shares no
// memory with raw. It costs one allocation, the string itself, unless the
// string has escapes or invalid UTF-8 and decodes to more than 64 bytes.
//
// raw is validated as it is decoded; text that is not exactly one JSON
// string is rejected with a *SyntaxError.
func UnquoteString(raw []byte) (string, error) {
	p := parser{data: raw}
	plain, err := p.checkString()
	if err != nil {
		return "", err
	}
	if plain {
		return string(raw[1 : len(raw)-1]), nil
	}
	var scratch [64]byte
	b, _ := p.strSlow(1, scratch[:0]) // cannot fail: raw is valid
	return string(b), nil
}

// AppendUnquoted appends the decoded text of the JSON string raw to dst,
// as UnquoteString decodes it but without making a string, and returns the
// extended buffer. On error it returns dst unchanged and a *SyntaxError.
// It suits appending a streamed delta straight into a buffer.
func AppendUnquoted(dst, raw []byte) ([]byte, error) {
	p := parser{data: raw}
	plain, err := p.checkString()
	if err != nil {
		return dst, err
	}
	if plain {
		return append(dst, raw[1:len(raw)-1]...), nil
	}
	return p.strSlow(1, dst) // cannot fail: raw is valid
}

// checkString validates p.data as exactly one JSON string, with nothing
// around it, and reports whether its contents stand for themselves (no
// escapes, valid UTF-8) and so need no decoding.
func (p *parser) checkString() (plain bool, err error) {
	data := p.data
	if len(data) == 0 {
		return false, p.errorf(CodeEmpty, "no JSON value")
	}
	if data[0] != '"' {
		return false, p.errorf(CodeSyntax, "invalid character "+quoteByte(data[0])+" looking for beginning of string")
	}
	// The fast scanner validates; most strings then turn out to need no
	// decoding at all.
	if err := p.skipStr(); err != nil {
		return false, err
	}
	if p.pos < len(data) {
		return false, p.errorf(CodeTrailingData, "invalid character "+quoteByte(data[p.pos])+" after string")
	}
	s := data[1 : len(data)-1]
	return bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s), nil
}

// le64 reads eight bytes little-endian, as encoding/binary's LittleEndian
// does (the compiler turns it into one load where it can). encoding/binary
// is not imported: it brings reflect into the WebAssembly module.
func le64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// le64s is le64 of a string.
func le64s(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
