package dialect

import "github.com/agui-reducer/agui/reducer/jsontree"

// fields reads typed fields from an event object, remembering the first
// problem so that translating code stays linear.
type fields struct {
	obj *jsontree.Object
	typ string
	err *Diagnostic
}

func (d *fields) fail(msg string) {
	if d.err == nil {
		t := d.typ
		if t == "" {
			t = "event"
		}
		d.err = errorf("bad_event", t+": "+msg)
	}
}

// str reads a string field. Absent or null is an error when required.
func (d *fields) str(key string, required bool) string {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		if required {
			d.fail(key + " is required")
		}
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		d.fail(key + " must be a string")
	}
	return s
}

// optStr reads an optional string; null counts as absent.
func (d *fields) optStr(key string) (string, bool) {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		d.fail(key + " must be a string")
		return "", false
	}
	return s, true
}

// object reads an optional object; null counts as absent.
func (d *fields) object(key string) *jsontree.Object {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		return nil
	}
	o, isObj := v.(*jsontree.Object)
	if !isObj {
		d.fail(key + " must be an object")
	}
	return o
}

// array reads an optional array; null counts as absent.
func (d *fields) array(key string) *jsontree.Array {
	v, ok := d.obj.Get(key)
	if !ok || v == nil {
		return nil
	}
	a, isArr := v.(*jsontree.Array)
	if !isArr {
		d.fail(key + " must be an array")
	}
	return a
}
