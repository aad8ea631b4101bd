package partialjson

import (
	"strconv"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// DefaultMaxDepth is the nesting limit used when Options.MaxDepth is not
// positive. It is the limit of encoding/json, so both accept the same
// documents.
const DefaultMaxDepth = 10000

// Options configures a Parser.
type Options struct {
	// MaxDepth bounds the nesting of arrays and objects; deeper input is a
	// syntax error. Zero or negative means DefaultMaxDepth.
	MaxDepth int
	// JSText reads the input as JavaScript text held as WTF-8, the way a
	// stream of decoded JSON strings arrives: a lone UTF-16 surrogate
	// (escaped, or as its three-byte WTF-8 form) stays lone instead of
	// becoming U+FFFD, and pairs with its partner across writes, as
	// JavaScript string concatenation pairs them. The default follows
	// encoding/json.
	JSText bool
	// Ends also reports the completion of every string, array and
	// object as an End edit, for a consumer that judges values once they
	// are complete (a schema validator). Numbers and literals are added
	// complete and need none.
	Ends bool
}

// SyntaxError describes malformed input.
type SyntaxError struct {
	Msg    string // description of the error
	Offset int64  // bytes of input before the offending byte
}

func (e *SyntaxError) Error() string {
	return "partialjson: " + e.Msg + " at offset " + strconv.FormatInt(e.Offset, 10)
}

// Parser parses one JSON document written to it in pieces and maintains its
// live value (see the package documentation). The zero value is ready to
// use with default options. A Parser is not safe for concurrent use, and
// emit callbacks must not call back into it.
type Parser struct {
	maxDepth int
	ends     bool
	err      error
	closed   bool
	started  bool  // the root value exists
	off      int64 // input bytes consumed by earlier writes

	// The live value. The string being read is represented in the tree by
	// openString{} and its text lives in str.buf.
	root   jsontree.Value
	stack  []frame // open containers, outermost first
	path   []byte  // JSON Pointer of the innermost open container
	expect expect

	tok     token
	str     strDecoder
	strPath string // JSON Pointer of the open string value
	flushed int    // bytes of str.buf already reported by Append edits
	num     []byte // text of the number being read
	numSt   numState
	lit     string // literal being read: "true", "false" or "null"
	litN    int    // bytes of lit matched
}

// frame is an open container.
type frame struct {
	obj     *jsontree.Object // exactly one of obj and arr is set
	arr     *jsontree.Array
	pathLen int    // length of Parser.path while this is the innermost frame
	key     string // object: the key of the member being read
}

// expect is what the grammar allows next, outside tokens.
type expect uint8

const (
	expValue        expect = iota // a value (the zero value: the root)
	expValueOrClose               // a value or ']', after '['
	expKeyOrClose                 // a key or '}', after '{'
	expKey                        // a key, after ',' in an object
	expColon                      // ':' after a key
	expCommaOrClose               // ',' or the closing bracket, after a member
	expEnd                        // nothing but whitespace, after the root value
)

// token is the kind of token being read.
type token uint8

const (
	tokNone token = iota
	tokString
	tokKey
	tokNumber
	tokLiteral
)

// openString marks the slot of the string being read in the live tree.
type openString struct{}

// New returns a Parser with the given options.
func New(opt Options) *Parser {
	p := &Parser{maxDepth: opt.MaxDepth, ends: opt.Ends}
	p.str.js = opt.JSText
	return p
}

// Err returns the syntax error that stopped the parser, or nil.
func (p *Parser) Err() error { return p.err }

// Complete reports whether a whole top-level value has been read. A
// top-level number is complete only once whitespace follows it or Close is
// called, since more digits could follow. Complete says nothing about
// errors after the value; see Err.
func (p *Parser) Complete() bool { return p.expect == expEnd }

// Write parses the next piece of input and calls emit, if not nil, for each
// change to the live value, in order. After a syntax error or Close, Write
// does nothing.
func (p *Parser) Write(delta string, emit func(Edit)) {
	if p.err != nil || p.closed {
		return
	}
	i := 0
	for i < len(delta) && p.err == nil {
		switch p.tok {
		case tokString, tokKey:
			i = p.stringBytes(delta, i, emit)
		case tokNumber:
			i = p.numberBytes(delta, i, emit)
		case tokLiteral:
			i = p.literalBytes(delta, i, emit)
		default:
			i = p.structural(delta, i, emit)
		}
	}
	p.flush(emit)
	p.off += int64(len(delta))
}

// Close declares the end of the input. It completes a pending top-level
// number, reporting it through emit, and records an error if the document
// is incomplete. Later calls to Write and Close do nothing.
func (p *Parser) Close(emit func(Edit)) {
	if p.closed {
		return
	}
	p.closed = true
	if p.err != nil {
		return
	}
	if p.tok == tokNumber && len(p.stack) == 0 && p.numSt.complete() {
		p.addScalar(jsontree.Number(p.num), emit)
	}
	if p.expect != expEnd {
		p.err = &SyntaxError{Msg: "unexpected end of JSON input", Offset: p.off}
	}
}

// fail records a syntax error at byte i of the current write. Not
// inlined: it is the cold path of every check in the grammar.
//
//go:noinline
func (p *Parser) fail(s string, i int, context string) {
	p.err = &SyntaxError{Msg: "invalid character " + quoteChar(s[i]) + " " + context, Offset: p.off + int64(i)}
}

func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// structural handles s[i] outside any token and returns the index of the
// next byte to read.
func (p *Parser) structural(s string, i int, emit func(Edit)) int {
	c := s[i]
	if isSpace(c) {
		return i + 1
	}
	switch p.expect {
	case expValue, expValueOrClose:
		if c == ']' && p.expect == expValueOrClose {
			p.closeContainer(emit)
			return i + 1
		}
		return p.beginValue(s, i, emit)
	case expKeyOrClose, expKey:
		if c == '}' && p.expect == expKeyOrClose {
			p.closeContainer(emit)
			return i + 1
		}
		if c == '"' {
			p.tok = tokKey
			p.str.reset()
			return i + 1
		}
		p.fail(s, i, "looking for beginning of object key string")
	case expColon:
		if c == ':' {
			p.expect = expValue
			return i + 1
		}
		p.fail(s, i, "after object key")
	case expCommaOrClose:
		top := &p.stack[len(p.stack)-1]
		switch {
		case c == ',' && top.obj != nil:
			p.expect = expKey
		case c == ',':
			p.expect = expValue
		case c == '}' && top.obj != nil, c == ']' && top.arr != nil:
			p.closeContainer(emit)
		default:
			p.fail(s, i, p.afterValue())
			return i
		}
		return i + 1
	case expEnd:
		p.fail(s, i, p.afterValue())
	}
	return i
}

// afterValue describes the position after a value, for error messages.
func (p *Parser) afterValue() string {
	switch {
	case len(p.stack) == 0:
		return "after top-level value"
	case p.stack[len(p.stack)-1].obj != nil:
		return "after object key:value pair"
	}
	return "after array element"
}

// endsValue reports whether c may follow a value in the current position,
// which is what makes a number complete.
func (p *Parser) endsValue(c byte) bool {
	if isSpace(c) {
		return true
	}
	if len(p.stack) == 0 {
		return false
	}
	top := &p.stack[len(p.stack)-1]
	return c == ',' || c == '}' && top.obj != nil || c == ']' && top.arr != nil
}

// beginValue starts the value whose first byte is s[i].
func (p *Parser) beginValue(s string, i int, emit func(Edit)) int {
	switch c := s[i]; c {
	case '{', '[':
		if len(p.stack) >= p.depthLimit() {
			p.fail(s, i, "exceeding the maximum nesting depth")
			return i
		}
		f := frame{}
		var v, fresh jsontree.Value
		if c == '{' {
			f.obj = jsontree.NewObject(0)
			v, fresh = f.obj, jsontree.NewObject(0)
			p.expect = expKeyOrClose
		} else {
			f.arr = &jsontree.Array{}
			v, fresh = f.arr, &jsontree.Array{}
			p.expect = expValueOrClose
		}
		// The consumer gets its own empty container: ours fills up, and
		// it may have serialised its copy before the members arrive.
		_, op := p.place(v)
		if emit != nil {
			emit(Edit{Op: op, Path: string(p.path), Value: fresh})
		}
		f.pathLen = len(p.path)
		p.stack = append(p.stack, f)
	case '"':
		p.tok = tokString
		p.str.reset()
		p.flushed = 0
		n, op := p.place(openString{})
		p.strPath = string(p.path)
		p.path = p.path[:n]
		if emit != nil {
			emit(Edit{Op: op, Path: p.strPath, Value: ""})
		}
	case 't', 'f', 'n':
		p.tok = tokLiteral
		switch c {
		case 't':
			p.lit = "true"
		case 'f':
			p.lit = "false"
		default:
			p.lit = "null"
		}
		p.litN = 1
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		p.tok = tokNumber
		p.num = append(p.num[:0], c)
		p.numSt = numStart(c)
	default:
		p.fail(s, i, "looking for beginning of value")
		return i
	}
	return i + 1
}

func (p *Parser) depthLimit() int {
	if p.maxDepth > 0 {
		return p.maxDepth
	}
	return DefaultMaxDepth
}

// place stores v in the slot of the value being started, extends p.path to
// that slot and returns the previous length of p.path, so the caller can
// restore it, and the operation that sets the slot.
func (p *Parser) place(v jsontree.Value) (int, EditOp) {
	n := len(p.path)
	if len(p.stack) == 0 {
		p.root = v
		p.started = true
		return n, Replace
	}
	f := &p.stack[len(p.stack)-1]
	p.path = append(p.path, '/')
	if f.obj != nil {
		f.obj.Set(f.key, v)
		p.path = jsontree.AppendPointerToken(p.path, f.key)
	} else {
		p.path = strconv.AppendInt(p.path, int64(len(f.arr.Elems)), 10)
		f.arr.Elems = append(f.arr.Elems, v)
	}
	return n, Add
}

// addScalar adds a completed number or literal.
func (p *Parser) addScalar(v jsontree.Value, emit func(Edit)) {
	n, op := p.place(v)
	if emit != nil {
		emit(Edit{Op: op, Path: string(p.path), Value: v})
	}
	p.path = p.path[:n]
	p.valueDone()
}

// setLast replaces the value in the slot most recently placed.
func (p *Parser) setLast(v jsontree.Value) {
	if len(p.stack) == 0 {
		p.root = v
		return
	}
	f := &p.stack[len(p.stack)-1]
	if f.obj != nil {
		f.obj.Set(f.key, v)
	} else {
		f.arr.Elems[len(f.arr.Elems)-1] = v
	}
}

func (p *Parser) closeContainer(emit func(Edit)) {
	if p.ends && emit != nil {
		f := &p.stack[len(p.stack)-1]
		var v jsontree.Value = f.obj
		if f.arr != nil {
			v = f.arr
		}
		emit(Edit{Op: End, Value: v})
	}
	p.stack = p.stack[:len(p.stack)-1]
	if len(p.stack) == 0 {
		p.path = p.path[:0]
	} else {
		p.path = p.path[:p.stack[len(p.stack)-1].pathLen]
	}
	p.valueDone()
}

// valueDone moves past a completed value.
func (p *Parser) valueDone() {
	p.tok = tokNone
	if len(p.stack) == 0 {
		p.expect = expEnd
	} else {
		p.expect = expCommaOrClose
	}
}

// flush reports the text decoded since the last Append: a slice of the
// string's text, not a copy (see strDecoder).
func (p *Parser) flush(emit func(Edit)) {
	n := len(p.str.buf)
	if p.tok != tokString || n == p.flushed {
		return
	}
	from := p.flushed
	p.flushed = n // first: OpenText, called from emit, includes this edit
	if emit != nil {
		emit(Edit{Op: Append, Path: p.strPath, Text: p.str.text()[from:n]})
	}
}

// OpenText returns the text of the string value being read, as the Append
// edits so far reported it ("" when no string value is open). It is a
// view of the parser's text, which never changes once reported: a
// consumer that shows the open string as it grows keeps no copy of it.
func (p *Parser) OpenText() string {
	if p.tok != tokString {
		return ""
	}
	return p.str.text()[:p.flushed]
}

// stringBytes reads string or key bytes from s[i:] up to and including the
// closing quote.
func (p *Parser) stringBytes(s string, i int, emit func(Edit)) int {
	d := &p.str
	for i < len(s) {
		if d.esc != 0 {
			if msg := d.escapeByte(s[i]); msg != "" {
				p.fail(s, i, msg)
				return i
			}
			i++
			continue
		}
		// Printable ASCII, the bulk of a string, is written as it is: one
		// scan, unless a character or surrogate is pending.
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < utf8.RuneSelf && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if j > i && d.high == 0 && d.npart == 0 {
			d.buf = append(d.buf, s[i:j]...)
			i = j
			continue
		}
		for j < len(s) && s[j] >= 0x20 && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if j > i {
			d.plain(s[i:j])
			i = j
			continue
		}
		switch s[i] {
		case '"':
			d.finish()
			if p.tok == tokKey {
				p.stack[len(p.stack)-1].key = d.text()
				p.tok = tokNone
				p.expect = expColon
			} else {
				p.flush(emit)
				p.setLast(d.text())
				p.valueDone()
				if p.ends && emit != nil {
					emit(Edit{Op: End, Value: d.text()})
				}
			}
			return i + 1
		case '\\':
			// A one-character escape whole in s, with nothing pending,
			// is its byte (what startEscape then escapeByte make of it).
			if i+1 < len(s) && d.high == 0 && d.npart == 0 {
				if c := simpleEscapes[s[i+1]]; c != 0 {
					d.buf = append(d.buf, c)
					i += 2
					continue
				}
			}
			d.startEscape()
		default:
			p.fail(s, i, "in string literal")
			return i
		}
		i++
	}
	return i
}

// simpleEscapes maps the character after a backslash to the byte the
// escape stands for, for the one-character escapes (0: another).
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// numberBytes reads number bytes from s[i:]. A byte that ends the number
// is left for the grammar.
func (p *Parser) numberBytes(s string, i int, emit func(Edit)) int {
	start := i
	for i < len(s) {
		st, ok := p.numSt.next(s[i])
		if !ok {
			break
		}
		p.numSt = st
		i++
	}
	p.num = append(p.num, s[start:i]...)
	if i == len(s) {
		return i
	}
	switch {
	case !p.numSt.complete():
		p.fail(s, i, "in numeric literal")
	case !p.endsValue(s[i]):
		// The number is not known to be complete: the longest valid
		// prefix ends inside it.
		p.fail(s, i, p.afterValue())
	default:
		p.addScalar(jsontree.Number(p.num), emit)
	}
	return i
}

// literalBytes reads the rest of true, false or null from s[i:].
func (p *Parser) literalBytes(s string, i int, emit func(Edit)) int {
	for ; i < len(s) && p.litN < len(p.lit); i++ {
		if s[i] != p.lit[p.litN] {
			p.fail(s, i, "in literal "+p.lit+" (expecting "+quoteChar(p.lit[p.litN])+")")
			return i
		}
		p.litN++
	}
	if p.litN == len(p.lit) {
		var v jsontree.Value
		switch p.lit {
		case "true":
			v = true
		case "false":
			v = false
		}
		p.addScalar(v, emit)
	}
	return i
}
