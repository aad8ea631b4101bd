package partialjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// encode renders a live value as compact JSON, keeping key order and
// quoting strings with strconv so that invalid UTF-8 would show. A missing
// value is "none".
func encode(v jsontree.Value, ok bool) string {
	if !ok {
		return "none"
	}
	var b strings.Builder
	encodeTo(&b, v)
	return b.String()
}

func encodeTo(b *strings.Builder, v jsontree.Value) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case jsontree.Number:
		b.WriteString(string(v))
	case string:
		b.WriteString(strconv.Quote(v))
	case *jsontree.Array:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeTo(b, e)
		}
		b.WriteByte(']')
	case *jsontree.Object:
		b.WriteByte('{')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(v.KeyAt(i)))
			b.WriteByte(':')
			encodeTo(b, v.ValueAt(i))
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "<%T>", v)
	}
}

// toStd converts a live value to what encoding/json produces when decoding
// into any with UseNumber.
func toStd(v jsontree.Value) any {
	switch v := v.(type) {
	case jsontree.Number:
		return json.Number(v)
	case *jsontree.Array:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = toStd(e)
		}
		return out
	case *jsontree.Object:
		out := make(map[string]any, v.Len())
		for i := range v.Len() {
			out[v.KeyAt(i)] = toStd(v.ValueAt(i))
		}
		return out
	}
	return v
}

// stdDecode decodes a whole document with encoding/json.
func stdDecode(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// sameAsStd reports whether the live value equals encoding/json's decoding
// of doc.
func sameAsStd(v jsontree.Value, doc []byte) (bool, string) {
	std, err := stdDecode(doc)
	if err != nil {
		return false, err.Error()
	}
	got := toStd(v)
	if reflect.DeepEqual(got, std) {
		return true, ""
	}
	return false, fmt.Sprintf("got %#v, encoding/json %#v", got, std)
}

// replayer applies edits to its own tree, as a consumer would.
type replayer struct {
	root    jsontree.Value
	present bool
}

func (r *replayer) apply(e Edit) error {
	switch e.Op {
	case Replace:
		if e.Path != "" {
			return fmt.Errorf("replace at %q", e.Path)
		}
		if err := checkFresh(e.Value); err != nil {
			return err
		}
		r.root, r.present = e.Value, true
		return nil
	case Add, Append:
	default:
		return fmt.Errorf("bad op %v", e.Op)
	}
	if !r.present {
		return fmt.Errorf("%v at %q before a root", e.Op, e.Path)
	}
	if e.Op == Append && e.Path == "" {
		s, ok := r.root.(string)
		if !ok {
			return fmt.Errorf("append to root %T", r.root)
		}
		r.root = s + e.Text
		return nil
	}
	if e.Path == "" || e.Path[0] != '/' {
		return fmt.Errorf("bad path %q", e.Path)
	}
	toks := strings.Split(e.Path[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	parent := r.root
	for _, t := range toks[:len(toks)-1] {
		child, err := lookup(parent, t)
		if err != nil {
			return fmt.Errorf("%q: %v", e.Path, err)
		}
		parent = child
	}
	last := toks[len(toks)-1]
	if e.Op == Append {
		cur, err := lookup(parent, last)
		if err != nil {
			return fmt.Errorf("%q: %v", e.Path, err)
		}
		s, ok := cur.(string)
		if !ok {
			return fmt.Errorf("%q: append to %T", e.Path, cur)
		}
		return store(parent, last, s+e.Text, false)
	}
	if err := checkFresh(e.Value); err != nil {
		return err
	}
	return store(parent, last, e.Value, true)
}

// checkFresh checks that an added value is a scalar, "" or an empty
// container.
func checkFresh(v jsontree.Value) error {
	switch v := v.(type) {
	case *jsontree.Object:
		if v.Len() != 0 {
			return fmt.Errorf("added object is not empty")
		}
	case *jsontree.Array:
		if len(v.Elems) != 0 {
			return fmt.Errorf("added array is not empty")
		}
	case string:
		if v != "" {
			return fmt.Errorf("added string %q is not empty", v)
		}
	}
	return nil
}

func lookup(v jsontree.Value, tok string) (jsontree.Value, error) {
	switch v := v.(type) {
	case *jsontree.Object:
		if c, ok := v.Get(tok); ok {
			return c, nil
		}
		return nil, fmt.Errorf("no key %q", tok)
	case *jsontree.Array:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(v.Elems) {
			return nil, fmt.Errorf("bad index %q", tok)
		}
		return v.Elems[i], nil
	}
	return nil, fmt.Errorf("step %q into %T", tok, v)
}

// store sets tok in container v. With add, an array index must be the
// length (append); otherwise it must exist.
func store(v jsontree.Value, tok string, x jsontree.Value, add bool) error {
	switch v := v.(type) {
	case *jsontree.Object:
		v.Set(tok, x)
		return nil
	case *jsontree.Array:
		i, err := strconv.Atoi(tok)
		switch {
		case err != nil || i < 0 || i > len(v.Elems):
			return fmt.Errorf("bad index %q", tok)
		case add && i != len(v.Elems):
			return fmt.Errorf("add at %d, not at the end (%d)", i, len(v.Elems))
		case add:
			v.Elems = append(v.Elems, x)
		case i == len(v.Elems):
			return fmt.Errorf("bad index %q", tok)
		default:
			v.Elems[i] = x
		}
		return nil
	}
	return fmt.Errorf("store %q into %T", tok, v)
}
