package dialect

import (
	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// fields reads the members of an event object as the reducer does
// (eventjson.Fields); its problem is a Diagnostic.
type fields struct{ eventjson.Fields }

// fieldsOf reads the members of obj, what is named typ in messages.
func fieldsOf(obj *jsontree.Object, typ string) fields {
	return fields{eventjson.Fields{Obj: obj, Type: typ}}
}

// err is the first problem met, nil while there is none.
//
//go:noinline
func (f *fields) err() *Diagnostic { return diagnosticOf(f.Err) }

// diagnosticOf is the Diagnostic of a decoding problem (nil for nil). Not
// inlined: it is called from every return of a translating function.
//
//go:noinline
func diagnosticOf(e *eventjson.Error) *Diagnostic {
	if e == nil {
		return nil
	}
	return errorf(e.Code, e.Message)
}
