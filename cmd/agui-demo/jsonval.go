package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// value is a JSON value that keeps the order of object members, so a
// replayed event goes out with its fields in the recorded order ("type"
// first), which is what a person reading the stream expects.
type value struct {
	kind    byte     // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal (true/false/null)
	text    string   // string value, number text, or literal text
	members []member // object
	elems   []*value // array
}

type member struct {
	key string
	val *value
}

// parseValue parses one JSON document.
func parseValue(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func readValue(dec *json.Decoder) (*value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &value{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %v", kt)
				}
				mv, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, member{key, mv})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return v, nil
		case '[':
			v := &value{kind: 'a'}
			for dec.More() {
				ev, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				v.elems = append(v.elems, ev)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return v, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return &value{kind: 's', text: t}, nil
	case json.Number:
		return &value{kind: 'n', text: string(t)}, nil
	case bool:
		if t {
			return &value{kind: 'l', text: "true"}, nil
		}
		return &value{kind: 'l', text: "false"}, nil
	case nil:
		return &value{kind: 'l', text: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// get returns the member named key of an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// str returns the string value, or "" when v is not a string.
func (v *value) str() string {
	if v == nil || v.kind != 's' {
		return ""
	}
	return v.text
}

// appendJSON appends v in compact form, on one line.
func (v *value) appendJSON(dst []byte) []byte {
	switch v.kind {
	case 'o':
		dst = append(dst, '{')
		for i, m := range v.members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, m.key)
			dst = append(dst, ':')
			dst = m.val.appendJSON(dst)
		}
		return append(dst, '}')
	case 'a':
		dst = append(dst, '[')
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.appendJSON(dst)
		}
		return append(dst, ']')
	case 's':
		return appendString(dst, v.text)
	}
	return append(dst, v.text...)
}

// appendString appends s as a JSON string. Only what JSON requires is
// escaped (plus U+2028/U+2029), so text stays readable in the stream.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"':
			dst = append(dst, '\\', '"')
		case r == '\\':
			dst = append(dst, '\\', '\\')
		case r == '\n':
			dst = append(dst, '\\', 'n')
		case r == '\r':
			dst = append(dst, '\\', 'r')
		case r == '\t':
			dst = append(dst, '\\', 't')
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			dst = append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			dst = append(dst, string(r)...)
		}
	}
	return append(dst, '"')
}

// rewrite returns a copy of v in which every string value and object key
// found in ids is replaced by its mapping, and every JSON Pointer held in a
// patch operation's "path" or "from" has its matching segments replaced.
func (v *value) rewrite(ids map[string]string) *value {
	switch v.kind {
	case 'o':
		out := &value{kind: 'o', members: make([]member, len(v.members))}
		for i, m := range v.members {
			key := m.key
			if n, ok := ids[key]; ok {
				key = n
			}
			val := m.val
			if (m.key == "path" || m.key == "from") && val.kind == 's' && strings.HasPrefix(val.text, "/") {
				val = &value{kind: 's', text: rewritePointer(val.text, ids)}
			} else {
				val = val.rewrite(ids)
			}
			out.members[i] = member{key, val}
		}
		return out
	case 'a':
		out := &value{kind: 'a', elems: make([]*value, len(v.elems))}
		for i, e := range v.elems {
			out.elems[i] = e.rewrite(ids)
		}
		return out
	case 's':
		if n, ok := ids[v.text]; ok {
			return &value{kind: 's', text: n}
		}
	}
	return v
}

var (
	pointerUnescape = strings.NewReplacer("~1", "/", "~0", "~")
	pointerEscape   = strings.NewReplacer("~", "~0", "/", "~1")
)

func rewritePointer(p string, ids map[string]string) string {
	segs := strings.Split(p[1:], "/")
	changed := false
	for i, s := range segs {
		if n, ok := ids[pointerUnescape.Replace(s)]; ok {
			segs[i] = pointerEscape.Replace(n)
			changed = true
		}
	}
	if !changed {
		return p
	}
	return "/" + strings.Join(segs, "/")
}
