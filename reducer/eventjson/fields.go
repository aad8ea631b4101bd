package eventjson

import "github.com/agui-reducer/agui/reducer/jsontree"

// Fields reads typed members of an event object. It remembers the first
// problem ("bad_event", prefixed with Type) in Err and reads on, so that
// decoding code stays linear.
type Fields struct {
	Obj  *jsontree.Object
	Type string // what Obj is, for messages ("" reads "event")
	Err  *Error // the first problem; nil while there is none
}

// Fail records a problem with the object, unless one was recorded already.
func (d *Fields) Fail(msg string) {
	if d.Err == nil {
		t := d.Type
		if t == "" {
			t = "event"
		}
		d.Err = Errorf("bad_event", t+": "+msg)
	}
}

// Str reads a string member. Absent or null is a problem when required.
func (d *Fields) Str(key string, required bool) string {
	v, ok := d.Obj.Get(key)
	if !ok || v == nil {
		if required {
			d.Fail(key + " is required")
		}
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		d.Fail(key + " must be a string")
	}
	return s
}

// PresentStr reads an optional string member that may not be null.
func (d *Fields) PresentStr(key string) (string, bool) {
	v, ok := d.Obj.Get(key)
	if !ok {
		return "", false
	}
	return d.isStr(key, v)
}

// OptStr reads an optional string member; null counts as absent.
func (d *Fields) OptStr(key string) (string, bool) {
	v, ok := d.Obj.Get(key)
	if !ok || v == nil {
		return "", false
	}
	return d.isStr(key, v)
}

func (d *Fields) isStr(key string, v jsontree.Value) (string, bool) {
	s, isStr := v.(string)
	if !isStr {
		d.Fail(key + " must be a string")
		return "", false
	}
	return s, true
}

// Array reads an array member. Absent or null is a problem when required.
func (d *Fields) Array(key string, required bool) *jsontree.Array {
	v, ok := d.Obj.Get(key)
	if !ok || v == nil {
		if required {
			d.Fail(key + " is required")
		}
		return nil
	}
	a, isArr := v.(*jsontree.Array)
	if !isArr {
		d.Fail(key + " must be an array")
	}
	return a
}

// Object reads an optional object member; null counts as absent.
func (d *Fields) Object(key string) *jsontree.Object {
	v, ok := d.Obj.Get(key)
	if !ok || v == nil {
		return nil
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		d.Fail(key + " must be an object")
	}
	return o
}

// Metadata reads the base metadata member. An explicit null is a problem,
// as the official schema has it.
func (d *Fields) Metadata() *jsontree.Object {
	v, ok := d.Obj.Get("metadata")
	if !ok {
		return nil
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		d.Fail("metadata must be an object")
		return nil
	}
	return o
}
