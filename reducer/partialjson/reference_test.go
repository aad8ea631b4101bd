package partialjson

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// This file holds a slow reference for the live value: it recomputes the
// value of a whole prefix from scratch, using encoding/json to find the
// first syntax error and to decode strings, and shares no code with the
// parser.

// refResult is the reference's view of a parser that was written input.
type refResult struct {
	present bool // a live value exists
	failed  bool // the parser should report an error
}

// refLive returns the live value after input was written to a parser
// with the default options, followed by Close if closed.
func refLive(input string, closed bool) (jsontree.Value, refResult) {
	return refLiveDepth(input, closed, DefaultMaxDepth)
}

// refLiveDepth is refLive for a parser with the given MaxDepth.
func refLiveDepth(input string, closed bool, maxDepth int) (jsontree.Value, refResult) {
	var res refResult
	errAt, eof := refFirstError(input)
	if d := refDepthError(input, maxDepth); d >= 0 && (errAt < 0 || d < errAt) {
		errAt, eof = d, false
	}
	switch {
	case errAt >= 0 && !eof:
		// The value stays that of the bytes before the bad one, which are
		// a valid prefix; Close changes nothing.
		input, closed = input[:errAt], false
		res.failed = true
	case errAt >= 0 && closed:
		res.failed = true
	}
	r := refParser{s: input, closed: closed}
	v, present, _ := r.value(true)
	res.present = present
	return v, res
}

// refFirstError returns the offset of the first byte that makes input
// invalid according to encoding/json, or -1 if input is valid. eof reports
// that input is merely incomplete: it is a valid prefix.
func refFirstError(input string) (at int, eof bool) {
	if json.Valid([]byte(input)) {
		return -1, false
	}
	var v any
	err := json.Unmarshal([]byte(input), &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		panic("reference: no syntax error for invalid input")
	}
	msg := se.Error()
	// At the end of its input encoding/json feeds its scanner a space, so
	// input that ends inside a literal, a number or an escape reports an
	// invalid ' ' at len(input). A real space at the end cannot cause
	// that: had it been valid, another would be too.
	if msg == "unexpected end of JSON input" ||
		int(se.Offset) == len(input) && strings.HasPrefix(msg, "invalid character ' '") && input[len(input)-1] != ' ' {
		return len(input), true
	}
	return int(se.Offset) - 1, false
}

// refDepthError returns the offset of the first bracket that nests deeper
// than maxDepth, or -1. Only the valid part of input matters.
func refDepthError(input string, maxDepth int) int {
	depth, inString := 0, false
	for i := 0; i < len(input); i++ {
		switch c := input[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > maxDepth {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}

// refParser reads a valid JSON prefix by recursive descent.
type refParser struct {
	s      string
	i      int
	closed bool
}

func (r *refParser) ws() {
	for r.i < len(r.s) && isSpace(r.s[r.i]) {
		r.i++
	}
}

// value reads a value and reports whether it is part of the live value
// and whether it is complete.
func (r *refParser) value(top bool) (v jsontree.Value, present, done bool) {
	r.ws()
	if r.i >= len(r.s) {
		return nil, false, false
	}
	switch c := r.s[r.i]; c {
	case '{':
		r.i++
		obj := jsontree.NewObject(0)
		for {
			r.ws()
			if r.i < len(r.s) && r.s[r.i] == '}' {
				r.i++
				return obj, true, true
			}
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				r.ws()
			}
			if r.i >= len(r.s) {
				return obj, true, false
			}
			key, done := r.str()
			r.ws()
			if !done || r.i >= len(r.s) {
				return obj, true, false
			}
			r.i++ // ':'
			v, present, done := r.value(false)
			if present {
				obj.Set(key, v)
			}
			if !done {
				return obj, true, false
			}
		}
	case '[':
		r.i++
		arr := &jsontree.Array{}
		for {
			r.ws()
			if r.i < len(r.s) && r.s[r.i] == ']' {
				r.i++
				return arr, true, true
			}
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
			}
			v, present, done := r.value(false)
			if present {
				arr.Elems = append(arr.Elems, v)
			}
			if !done {
				return arr, true, false
			}
		}
	case '"':
		s, done := r.str()
		return s, true, done
	case 't', 'f', 'n':
		lit := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[c]
		if len(r.s)-r.i < len(lit) {
			r.i = len(r.s)
			return nil, false, false
		}
		r.i += len(lit)
		return map[byte]any{'t': true, 'f': false, 'n': nil}[c], true, true
	}
	j := r.i
	for j < len(r.s) && (r.s[j] >= '0' && r.s[j] <= '9' || r.s[j] == '-' || r.s[j] == '+' || r.s[j] == '.' || r.s[j] == 'e' || r.s[j] == 'E') {
		j++
	}
	text := r.s[r.i:j]
	r.i = j
	if j == len(r.s) && !(top && r.closed && json.Valid([]byte(text))) {
		// More digits could follow.
		return nil, false, false
	}
	return jsontree.Number(text), true, true
}

// str reads a string whose opening quote is at r.i and returns the text
// that the live value shows.
func (r *refParser) str() (string, bool) {
	start := r.i
	j := r.i + 1
	for j < len(r.s) {
		switch r.s[j] {
		case '"':
			r.i = j + 1
			return refUnquote(r.s[start:r.i]), true
		case '\\':
			if j+1 < len(r.s) && r.s[j+1] == 'u' {
				j += 6
			} else {
				j += 2
			}
		default:
			j++
		}
	}
	r.i = len(r.s)
	body := r.s[start+1:]
	return refUnquote(`"` + body[:refSafeCut(body)] + `"`), false
}

func refUnquote(q string) string {
	var s string
	if err := json.Unmarshal([]byte(q), &s); err != nil {
		panic("reference: " + err.Error())
	}
	return s
}

// refSafeCut returns the length of the part of an unterminated string body
// that can be decoded now: it leaves out an incomplete escape, a trailing
// high surrogate escape (possibly followed by the start of another escape)
// and an incomplete UTF-8 sequence.
func refSafeCut(b string) int {
	isPartialEscape := func(t string) bool {
		return len(t) > 0 && t[0] == '\\' && (len(t) == 1 || t[1] == 'u' && len(t) < 6)
	}
	for k := 0; k < len(b); {
		switch {
		case b[k] == '\\':
			if isPartialEscape(b[k:]) {
				return k
			}
			if b[k+1] != 'u' {
				k += 2
				continue
			}
			var code rune
			for _, h := range b[k+2 : k+6] {
				code <<= 4
				switch {
				case h <= '9':
					code |= h - '0'
				case h <= 'F':
					code |= h - 'A' + 10
				default:
					code |= h - 'a' + 10
				}
			}
			end := k + 6
			if 0xD800 <= code && code < 0xDC00 && (end == len(b) || isPartialEscape(b[end:])) {
				return k
			}
			k = end
		case b[k] >= utf8.RuneSelf:
			if !utf8.FullRuneInString(b[k:]) {
				return k
			}
			_, size := utf8.DecodeRuneInString(b[k:])
			k += size
		default:
			k++
		}
	}
	return len(b)
}

// refEncode returns encode of the reference live value and whether the
// parser should have failed.
func refEncode(input string, closed bool, maxDepth int) (string, bool) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	v, res := refLiveDepth(input, closed, maxDepth)
	return encode(v, res.present), res.failed
}
