package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The AG-UI 1.0 schema rules the decoder applies beyond field types, after
// @ag-ui/core 1.0.0's zod schema (src/generated/schemas.ts). runAgent's
// enforcement fails the whole run on a malformed known value; the decoder
// refuses the one event (bad_event) and the run goes on. An unknown member
// of an array (a patch op, a content part) enforcement removes with a
// warning; so does the decoder, and the reducer warns (unknown_member).

// maxSafeInteger is 2^53-1, the bound of the schema's z.int().
const maxSafeInteger = 1<<53 - 1

// validTimestamp reports whether f is what the schema's timestamp accepts:
// an integer (by value, as Number.isInteger: 1.0e3 is one) within
// ±(2^53-1).
func validTimestamp(f float64) bool {
	return f >= -maxSafeInteger && f <= maxSafeInteger && f == float64(int64(f))
}

// parseTimestamp reads a timestamp number's text.
func parseTimestamp(n string) (float64, bool) {
	f, err := strconv.ParseFloat(n, 64)
	return f, err == nil && validTimestamp(f)
}

// validPointer reports whether s is a JSON Pointer (RFC 6901) as the
// schema's regular expression ^(/([^/~]|~[01])*)*$ has it: "" or
// "/"-prefixed tokens in which "~" only starts "~0" or "~1".
func validPointer(s string) bool {
	if s != "" && s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			if i+1 >= len(s) || s[i+1] != '0' && s[i+1] != '1' {
				return false
			}
			i++
		}
	}
	return true
}

// patchOps checks an RFC 6902 patch as the schema does: op one of the six
// (an unknown op is removed), path and from JSON Pointers, value present for
// add, replace and test. Members an op does not define are kept (the
// schema marks operations open). It returns the patch without the unknown
// ops (the same array when there are none).
func (d *fields) patchOps(key string, a *jsontree.Array) *jsontree.Array {
	if a == nil {
		return nil
	}
	var kept []jsontree.Value
	for i, e := range a.Elems {
		at := key + "/" + strconv.Itoa(i)
		o, ok := e.(*jsontree.Object)
		if !ok {
			d.Fail(at + " must be an object")
			return a
		}
		op, _ := o.Get("op")
		s, isStr := op.(string)
		if !isStr {
			d.Fail(at + "/op must be a string")
			return a
		}
		switch s {
		case "add", "replace", "test", "remove", "move", "copy":
			if !d.pointer(o, at, "path") || (s == "move" || s == "copy") && !d.pointer(o, at, "from") {
				return a
			}
			if _, has := o.Get("value"); !has && (s == "add" || s == "replace" || s == "test") {
				d.Fail(at + "/value is required")
				return a
			}
			if kept != nil {
				kept = append(kept, e)
			}
			continue
		}
		// An unknown op: removed, as enforcement removes an unknown
		// member of an array.
		if kept == nil {
			kept = append(make([]jsontree.Value, 0, len(a.Elems)), a.Elems[:i]...)
		}
		d.removed = append(d.removed, "/"+at)
	}
	if kept == nil {
		return a
	}
	return &jsontree.Array{Elems: kept}
}

// pointer checks that o's key holds a JSON Pointer.
func (d *fields) pointer(o *jsontree.Object, at, key string) bool {
	v, ok := o.Get(key)
	if !ok {
		d.Fail(at + "/" + key + " is required")
		return false
	}
	if s, isStr := v.(string); !isStr || !validPointer(s) {
		d.Fail(at + "/" + key + " must be a JSON Pointer")
		return false
	}
	return true
}

// contentParts checks an array of content parts (ContentPartSchema, a
// union on type: text, image, audio, video, document). A part of unknown
// type, or a media part whose source has an unknown type, is removed; a
// known part with a missing or mistyped field refuses the event. It
// returns the parts kept (the same array when all are).
func (d *fields) contentParts(key string, a *jsontree.Array) *jsontree.Array {
	var kept []jsontree.Value
	for i, p := range a.Elems {
		at := key + "/" + strconv.Itoa(i)
		o, isObj := p.(*jsontree.Object)
		if !isObj {
			d.Fail(at + " must be an object")
			return nil
		}
		keep, ok := d.contentPart(at, o)
		if !ok {
			return nil
		}
		if keep {
			if kept != nil {
				kept = append(kept, p)
			}
			continue
		}
		if kept == nil {
			kept = append(make([]jsontree.Value, 0, len(a.Elems)), a.Elems[:i]...)
		}
		d.removed = append(d.removed, "/"+at)
	}
	if kept == nil {
		return a
	}
	return &jsontree.Array{Elems: kept}
}

// contentPart checks one part: keep is false for an unknown member, ok
// false when the event is refused.
func (d *fields) contentPart(at string, o *jsontree.Object) (keep, ok bool) {
	t, has := o.Get("type")
	typ, isStr := t.(string)
	if !has || t == nil {
		d.Fail(at + "/type is required")
		return false, false
	}
	if !isStr {
		d.Fail(at + "/type must be a string")
		return false, false
	}
	switch typ {
	case "text":
		if !d.partString(o, at, "text", true) {
			return false, false
		}
	case "image", "audio", "video", "document":
		src, has := o.Get("source")
		if !has {
			d.Fail(at + "/source is required")
			return false, false
		}
		so, isObj := src.(*jsontree.Object)
		if !isObj {
			d.Fail(at + "/source must be an object")
			return false, false
		}
		st, _ := so.Get("type")
		sts, isStr := st.(string)
		if !isStr {
			d.Fail(at + "/source/type must be a string")
			return false, false
		}
		switch sts {
		case "data", "url", "file":
		default:
			return false, true // an unknown source removes the part
		}
		if !d.partString(so, at+"/source", "value", true) ||
			!d.partString(so, at+"/source", "mimeType", sts == "data") ||
			sts == "file" && !d.partString(so, at+"/source", "provider", false) {
			return false, false
		}
	default:
		return false, true
	}
	if !d.partString(o, at, "id", false) {
		return false, false
	}
	if m, has := o.Get("metadata"); has && m == nil {
		d.Fail(at + "/metadata must not be null")
		return false, false
	}
	return true, true
}

// partString checks a string member of a part (or its source).
func (d *fields) partString(o *jsontree.Object, at, key string, required bool) bool {
	v, has := o.Get(key)
	if !has {
		if required {
			d.Fail(at + "/" + key + " is required")
		}
		return !required
	}
	if _, isStr := v.(string); !isStr {
		d.Fail(at + "/" + key + " must be a string")
		return false
	}
	return true
}
