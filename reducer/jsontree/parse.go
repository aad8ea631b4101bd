package jsontree

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/internal/utf8seq"
)

// DefaultMaxDepth is the nesting limit used when ParseOptions.MaxDepth is 0.
const DefaultMaxDepth = 10000

// Codes reported in SyntaxError.Code.
const (
	CodeEmpty         = "empty"          // the input holds no value, only whitespace
	CodeSyntax        = "syntax"         // the input is not JSON
	CodeUnexpectedEnd = "unexpected_end" // the input stops inside a value
	CodeTooDeep       = "too_deep"       // arrays and objects nest deeper than MaxDepth
	CodeTrailingData  = "trailing_data"  // something other than whitespace follows the value
)

// ParseOptions configures Parse.
type ParseOptions struct {
	// MaxDepth limits how deeply arrays and objects may nest; a document
	// exactly MaxDepth levels deep is accepted. Zero or less means
	// DefaultMaxDepth.
	MaxDepth int
	// JSText reads data as JavaScript text held as WTF-8 (the reducer's
	// concatenated tool arguments): a lone surrogate in its three-byte
	// WTF-8 form stays a lone surrogate instead of becoming U+FFFD.
	JSText bool
}

// A SyntaxError describes why Parse rejected its input.
type SyntaxError struct {
	Code   string // one of the Code constants
	Offset int    // byte offset in the input where the problem was detected
	Msg    string // human-readable description
}

func (e *SyntaxError) Error() string {
	return "jsontree: " + e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// Parse parses exactly one JSON value, optionally surrounded by whitespace.
// See the package documentation for how strings, numbers and duplicate keys
// are treated. The returned tree shares no memory with data.
func Parse(data []byte, opt ParseOptions) (Value, error) {
	p := parser{data: data, maxDepth: opt.MaxDepth, noCache: len(data) < minCachedInput, jsText: opt.JSText}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	return p.parse()
}

// initStacks gives the parse its stacks when its first container opens: one
// allocation sized for an event (growing three slices from nil cost
// several allocations per parse).
func (p *parser) initStacks() {
	if p.stack == nil {
		b := new(parseStacks)
		p.stack, p.vals, p.keys = b.stack[:0], b.vals[:0], b.keys[:0]
	}
}

// parseStacks holds the initial stacks of a parse.
type parseStacks struct {
	stack [4]frame
	vals  [8]Value
	keys  [8]string
}

// frame is an open array or object. Its members are collected on the
// parser's shared vals/keys stacks and copied into exactly sized slices when
// the container closes, so growing a container costs no allocations.
type frame struct {
	isObj    bool
	start    int            // first slot of this container in parser.vals
	keyStart int            // first slot in parser.keys (objects only)
	index    map[string]int // key → member position, once the object is large
}

// A Parser is Parse with memory kept from one call to the next: the
// stacks of open containers, and the cache of recent keys and short
// values that a stream of similar documents (the events of a stream)
// shares. Each tree it returns shares no memory with the Parser or with
// data, as Parse's. The zero Parser is ready to use; a Parser is not safe
// for concurrent use.
type Parser struct {
	stack []frame
	vals  []Value
	keys  []string
	cache *cache
}

// maxKeptStack bounds the stacks a Parser keeps (a deep or wide document
// would otherwise pin its scratch for good).
const maxKeptStack = 64

// Parse is the package's Parse, reusing p's memory.
func (p *Parser) Parse(data []byte, opt ParseOptions) (Value, error) {
	q := parser{data: data, maxDepth: opt.MaxDepth, jsText: opt.JSText, stack: p.stack, vals: p.vals, keys: p.keys, cache: p.cache}
	if q.maxDepth <= 0 {
		q.maxDepth = DefaultMaxDepth
	}
	v, err := q.parse()
	// The stacks are empty after a whole parse, not after a failed one:
	// drop the references they hold, so a kept Parser pins nothing.
	p.stack, p.vals, p.keys = keep(q.stack), keep(q.vals), keep(q.keys)
	p.cache = q.cache
	return v, err
}

// keep returns s emptied and cleared for reuse, or nil when it grew large.
func keep[T any](s []T) []T {
	if cap(s) > maxKeptStack {
		return nil
	}
	clear(s[:cap(s)])
	return s[:0]
}

type parser struct {
	data     []byte
	pos      int
	maxDepth int
	stack    []frame
	vals     []Value
	keys     []string
	buf      []byte // scratch for strings that need unescaping
	cache    *cache // allocated on first use
	noCache  bool   // input too small for the cache to pay off
	jsText   bool   // ParseOptions.JSText
}

// cache remembers recently seen short keys and values. State documents
// repeat the same keys (and often the same small values) in every record;
// reusing the string, or the boxed Value, saves one or two allocations per
// occurrence. Slots are picked by a cheap hash and simply overwritten, so
// the cost is bounded whatever the input.
type cache struct {
	keys [64]string
	vals [64]Value
}

const (
	maxCachedKey   = 32
	maxCachedVal   = 16
	minCachedInput = 256
)

func slot(b []byte) int {
	n := len(b)
	return (n ^ int(b[0])<<1 ^ int(b[n-1])<<3 ^ int(b[n/2])<<5) & 63
}

// keyString returns b as a string, reusing an earlier identical key.
func (p *parser) keyString(b []byte) string {
	if k := commonKey(b); k != "" {
		return k
	}
	if len(b) == 0 || len(b) > maxCachedKey || p.noCache {
		return string(b)
	}
	if p.cache == nil {
		p.cache = new(cache)
	}
	c := &p.cache.keys[slot(b)]
	if *c != string(b) {
		*c = string(b)
	}
	return *c
}

// commonKeys are keys that AG-UI events and change records use, returned
// as these constants (no allocation) when a key is one of them.
var commonKeys = [...]string{"type", "messageId", "toolCallId", "delta", "role", "content", "op", "path", "value"}

// commonKey returns the constant string of a common key, else "".
func commonKey(b []byte) string {
	for _, k := range commonKeys {
		if len(k) == len(b) && k == string(b) {
			return k
		}
	}
	return ""
}

// stringValue returns b as a boxed string Value, reusing an earlier one.
func (p *parser) stringValue(b []byte) Value {
	if len(b) == 0 || len(b) > maxCachedVal || p.noCache {
		return string(b)
	}
	if p.cache == nil {
		p.cache = new(cache)
	}
	c := &p.cache.vals[slot(b)]
	if s, ok := (*c).(string); !ok || s != string(b) {
		*c = string(b)
	}
	return *c
}

// numberValue is stringValue for numbers.
func (p *parser) numberValue(b []byte) Value {
	if len(b) > maxCachedVal || p.noCache {
		return Number(b)
	}
	if p.cache == nil {
		p.cache = new(cache)
	}
	c := &p.cache.vals[slot(b)]
	if n, ok := (*c).(Number); !ok || string(n) != string(b) {
		*c = Number(b)
	}
	return *c
}

func (p *parser) parse() (Value, error) {
	data := p.data
	p.skipSpace()
	if p.pos >= len(data) {
		return nil, p.errorf(CodeEmpty, "no JSON value")
	}
	var v Value
	for {
		// A value starts at p.pos; whitespace has been skipped.
		if p.pos >= len(data) {
			return nil, p.errorf(CodeUnexpectedEnd, "unexpected end of input, expected a value")
		}
		switch c := data[p.pos]; c {
		case '[', '{':
			if len(p.stack) >= p.maxDepth {
				return nil, p.errorf(CodeTooDeep, "nesting deeper than "+strconv.Itoa(p.maxDepth))
			}
			p.pos++
			p.skipSpace()
			if p.pos >= len(data) {
				return nil, p.errorf(CodeUnexpectedEnd, "unexpected end of input")
			}
			if c == '[' {
				if data[p.pos] == ']' {
					p.pos++
					v = &Array{}
					break
				}
				p.initStacks()
				p.stack = append(p.stack, frame{start: len(p.vals)})
				continue
			}
			if data[p.pos] == '}' {
				p.pos++
				v = &Object{}
				break
			}
			p.initStacks()
			p.stack = append(p.stack, frame{isObj: true, start: len(p.vals), keyStart: len(p.keys)})
			if err := p.key(); err != nil {
				return nil, err
			}
			continue
		case '"':
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			v = p.stringValue(s)
		case 't':
			if err := p.literal("true"); err != nil {
				return nil, err
			}
			v = true
		case 'f':
			if err := p.literal("false"); err != nil {
				return nil, err
			}
			v = false
		case 'n':
			if err := p.literal("null"); err != nil {
				return nil, err
			}
			v = nil
		default:
			end, code := scanNumber(data, p.pos)
			if code != "" {
				return nil, p.numberError(end, code)
			}
			v = p.numberValue(data[p.pos:end])
			p.pos = end
		}

		// v is complete: hand it to its container, closing containers
		// for as long as they end here.
		for {
			if len(p.stack) == 0 {
				p.skipSpace()
				if p.pos < len(data) {
					return nil, p.errorf(CodeTrailingData, "invalid character "+quoteByte(data[p.pos])+" after top-level value")
				}
				return v, nil
			}
			f := &p.stack[len(p.stack)-1]
			if f.isObj {
				p.addMember(f, v)
			} else {
				p.vals = append(p.vals, v)
			}
			p.skipSpace()
			if p.pos >= len(data) {
				return nil, p.errorf(CodeUnexpectedEnd, "unexpected end of input")
			}
			c := data[p.pos]
			if c == ',' {
				p.pos++
				p.skipSpace()
				if f.isObj {
					if err := p.key(); err != nil {
						return nil, err
					}
				}
				break
			}
			if f.isObj && c == '}' {
				p.pos++
				v = p.closeObject()
				continue
			}
			if !f.isObj && c == ']' {
				p.pos++
				v = p.closeArray()
				continue
			}
			return nil, p.afterValueError(f.isObj, c)
		}
	}
}

// numberError reports the failure code returned by scanNumber for the
// number starting at p.pos, which ended or went wrong at end.
func (p *parser) numberError(end int, code string) error {
	first := p.pos
	p.pos = end
	switch {
	case code == CodeUnexpectedEnd:
		return p.errorf(code, "unexpected end of input in number")
	case end == first:
		return p.errorf(code, "invalid character "+quoteByte(p.data[first])+" looking for beginning of value")
	}
	return p.errorf(code, "invalid character "+quoteByte(p.data[end])+" in number")
}

// afterValueError reports byte c, found at p.pos after a member of an
// object (isObj) or array where ',' or the closing bracket belongs.
func (p *parser) afterValueError(isObj bool, c byte) error {
	if isObj {
		return p.errorf(CodeSyntax, "invalid character "+quoteByte(c)+" after object value, expected ',' or '}'")
	}
	return p.errorf(CodeSyntax, "invalid character "+quoteByte(c)+" after array element, expected ',' or ']'")
}

func (p *parser) errorf(code, msg string) error {
	return &SyntaxError{Code: code, Offset: p.pos, Msg: msg}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) literal(lit string) error {
	rest := p.data[p.pos:]
	if len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
		p.pos += len(lit)
		return nil
	}
	// Report the first byte that differs, or the end of input.
	for i := 0; i < len(lit); i++ {
		if i >= len(rest) {
			p.pos += i
			return p.errorf(CodeUnexpectedEnd, "unexpected end of input in literal "+lit)
		}
		if rest[i] != lit[i] {
			p.pos += i
			return p.errorf(CodeSyntax, "invalid character "+quoteByte(rest[i])+" in literal "+lit)
		}
	}
	return nil // unreachable: the prefix matched in full
}

// key parses an object key and the colon after it, leaving p.pos at the
// start of the member's value.
func (p *parser) key() error {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return p.keyError()
	}
	k, err := p.str()
	if err != nil {
		return err
	}
	p.keys = append(p.keys, p.keyString(k))
	// As colon, written out: this is Parse's hot path.
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return p.colonError()
	}
	p.pos++
	p.skipSpace()
	return nil
}

// keyError reports that no key string starts at p.pos.
func (p *parser) keyError() error {
	if p.pos >= len(p.data) {
		return p.errorf(CodeUnexpectedEnd, "unexpected end of input, expected object key")
	}
	return p.errorf(CodeSyntax, "invalid character "+quoteByte(p.data[p.pos])+" looking for beginning of object key string")
}

// colon consumes the ':' after an object key, and the whitespace around
// it, leaving p.pos at the start of the member's value.
func (p *parser) colon() error {
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return p.colonError()
	}
	p.pos++
	p.skipSpace()
	return nil
}

// colonError reports that no ':' follows an object key at p.pos.
func (p *parser) colonError() error {
	if p.pos >= len(p.data) {
		return p.errorf(CodeUnexpectedEnd, "unexpected end of input, expected ':'")
	}
	return p.errorf(CodeSyntax, "invalid character "+quoteByte(p.data[p.pos])+" after object key, expected ':'")
}

// addMember stores v under the key most recently pushed for frame f. A
// repeated key overwrites the earlier value in place, as JSON.parse does.
func (p *parser) addMember(f *frame, v Value) {
	last := len(p.keys) - 1
	key := p.keys[last]
	n := last - f.keyStart // members already in the object
	if n > 0 {
		j := -1
		if f.index != nil {
			if i, ok := f.index[key]; ok {
				j = i
			}
		} else {
			for i, k := range p.keys[f.keyStart:last] {
				if k == key {
					j = i
					break
				}
			}
		}
		if j >= 0 {
			p.vals[f.start+j] = v
			p.keys = p.keys[:last]
			return
		}
	}
	p.vals = append(p.vals, v)
	switch {
	case f.index != nil:
		f.index[key] = n
	case n+1 > indexThreshold:
		// Large object: switch to a map, which the finished Object keeps.
		f.index = make(map[string]int, 2*(n+1))
		for i, k := range p.keys[f.keyStart:] {
			f.index[k] = i
		}
	}
}

func (p *parser) closeArray() Value {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	elems := make([]Value, len(p.vals)-f.start)
	copy(elems, p.vals[f.start:])
	clear(p.vals[f.start:]) // let the scratch stack drop its references
	p.vals = p.vals[:f.start]
	return &Array{Elems: elems}
}

func (p *parser) closeObject() Value {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	n := len(p.vals) - f.start
	o := &Object{keys: make([]string, n), vals: make([]Value, n), index: f.index}
	copy(o.keys, p.keys[f.keyStart:])
	copy(o.vals, p.vals[f.start:])
	clear(p.vals[f.start:])
	p.vals = p.vals[:f.start]
	p.keys = p.keys[:f.keyStart]
	return o
}

// SWAR constants for scanning eight string bytes at once.
const (
	lo01 = 0x0101010101010101
	lo20 = 0x2020202020202020
	hi80 = 0x8080808080808080
	qq   = '"' * lo01
	bsbs = '\\' * lo01
)

// plainWord reports whether the eight bytes of w (le64) are all plain
// inside a JSON string: none is '"', '\\', a control byte or above 0x7F.
// A borrow may make it report false for a plain word, never true for one
// that is not.
func plainWord(w uint64) bool { return ((w-lo20)|((w^qq)-lo01)|((w^bsbs)-lo01)|w)&hi80 == 0 }

// str parses the string starting at the quote at p.pos. The result is
// either a slice of the input or of p.buf, valid until the next call; it
// means nothing when err is set.
func (p *parser) str() ([]byte, error) {
	data := p.data
	start := p.pos + 1
	i := start
	ascii := true
	for {
		// Eight plain bytes at a time; the byte loop below sorts out a
		// word the test stopped at that was plain after all.
		for i+8 <= len(data) && plainWord(le64(data[i:])) {
			i += 8
		}
		if i >= len(data) {
			p.pos = i
			return nil, p.stringEndError()
		}
		switch c := data[i]; {
		case c == '"':
			s := data[start:i]
			if ascii || utf8.Valid(s) {
				p.pos = i + 1
				return s, nil
			}
			b, err := p.strSlow(start, p.buf[:0])
			p.buf = b
			return b, err
		case c == '\\':
			b, err := p.strSlow(start, p.buf[:0])
			p.buf = b
			return b, err
		case c < 0x20:
			p.pos = i
			return nil, p.controlError(c)
		case c >= utf8.RuneSelf:
			ascii = false
			i++
		default:
			i++
		}
	}
}

// strSlow decodes a string that has escapes or invalid UTF-8, starting
// just after its opening quote, and appends the result to b. On failure the
// returned slice is b as far as it got.
func (p *parser) strSlow(i int, b []byte) ([]byte, error) {
	data := p.data
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return b, nil
		case c == '\\':
			if i+1 >= len(data) {
				p.pos = len(data)
				return b, p.errorf(CodeUnexpectedEnd, "unexpected end of input in string escape")
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := p.hex4(i + 2)
				if err != nil {
					return b, err
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if r < 0xDC00 && i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
						// A malformed second escape is reported when the
						// loop reaches it, so the error is ignored here.
						r2, _ = p.hex4(i + 2)
					}
					if r2 >= 0xDC00 && r2 < 0xE000 {
						r = utf16.DecodeRune(r, r2)
						i += 6
					} else {
						// A lone surrogate stays one, as in JavaScript,
						// held as its three-byte WTF-8 form.
						b = append(b, 0xED, byte(0x80|r>>6&0x3F), byte(0x80|r&0x3F))
						continue
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				p.pos = i + 1
				return b, p.badEscapeError(e)
			}
			i += 2
		case c < 0x20:
			p.pos = i
			return b, p.controlError(c)
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(data) && plainASCII[data[j]] {
				j++
			}
			b = append(b, data[i:j]...)
			i = j
		default:
			n, ok := utf8seq.Len(data, i)
			switch {
			case ok:
				b = append(b, data[i:i+n]...)
			case p.jsText && c == 0xED && i+2 < len(data) && data[i+1]&0xE0 == 0xA0 && data[i+2]&0xC0 == 0x80:
				b, n = append(b, data[i:i+3]...), 3
			default:
				b = append(b, "\uFFFD"...)
			}
			i += n
		}
	}
	p.pos = len(data)
	return b, p.stringEndError()
}

// Errors shared by the string scanners; each reports p.pos.

func (p *parser) stringEndError() error {
	return p.errorf(CodeUnexpectedEnd, "unexpected end of input in string")
}

func (p *parser) controlError(c byte) error {
	return p.errorf(CodeSyntax, "invalid character "+quoteByte(c)+" in string literal")
}

func (p *parser) badEscapeError(e byte) error {
	return p.errorf(CodeSyntax, "invalid escape character "+quoteByte(e)+" in string literal")
}

// hex4 decodes the four hex digits of a \u escape starting at i.
func (p *parser) hex4(i int) (rune, error) {
	var r rune
	for j := i; j < i+4; j++ {
		if j >= len(p.data) {
			p.pos = len(p.data)
			return 0, p.errorf(CodeUnexpectedEnd, "unexpected end of input in \\u escape")
		}
		c := p.data[j]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			p.pos = j
			return 0, p.errorf(CodeSyntax, "invalid character "+quoteByte(c)+" in \\u escape")
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// plainASCII reports the bytes that stand for themselves inside a JSON
// string and need no escaping when written. It is never modified.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanNumber matches the JSON number grammar at s[i]. It returns the end of
// the number, or an error code and the offset of the offending byte.
func scanNumber[T ~string | ~[]byte](s T, i int) (end int, code string) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return i, CodeUnexpectedEnd
	}
	switch c := s[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	default:
		return i, CodeSyntax
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) {
			return i, CodeUnexpectedEnd
		}
		if s[i] < '0' || s[i] > '9' {
			return i, CodeSyntax
		}
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) {
			return i, CodeUnexpectedEnd
		}
		if s[i] < '0' || s[i] > '9' {
			return i, CodeSyntax
		}
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	return i, ""
}

func quoteByte(c byte) string {
	if c < utf8.RuneSelf {
		return strconv.QuoteRune(rune(c))
	}
	return `'\x` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&0xF]) + `'`
}
