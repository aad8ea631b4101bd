package jsonpatch

import (
	"slices"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The undo journal records the inverse of every mutation Apply makes, so a
// failing patch can be rolled back in time proportional to what it touched
// rather than to the document's size.

type undoKind uint8

const (
	undoObjectSet    undoKind = iota // an existing member was overwritten: put old back
	undoObjectAdd                    // a member was appended: delete it
	undoObjectRemove                 // a member was deleted: re-insert it at pos
	undoArraySet                     // an element was overwritten: put old back
	undoArrayInsert                  // an element was inserted at pos: remove it
	undoArrayRemove                  // an element was removed from pos: re-insert old
)

type undo struct {
	kind undoKind
	obj  *jsontree.Object
	arr  *jsontree.Array
	key  string
	pos  int
	old  jsontree.Value
}

// rollback undoes the journal, newest entry first. Objects get their
// members back at their old positions, so even key order is restored.
func (a *applier) rollback() {
	for i := len(a.journal) - 1; i >= 0; i-- {
		u := &a.journal[i]
		switch u.kind {
		case undoObjectSet:
			u.obj.Set(u.key, u.old)
		case undoObjectAdd:
			u.obj.Delete(u.key)
		case undoObjectRemove:
			u.obj.InsertAt(u.pos, u.key, u.old)
		case undoArraySet:
			u.arr.Elems[u.pos] = u.old
		case undoArrayInsert:
			u.arr.Elems = slices.Delete(u.arr.Elems, u.pos, u.pos+1)
		case undoArrayRemove:
			u.arr.Elems = slices.Insert(u.arr.Elems, u.pos, u.old)
		}
	}
	clear(a.journal)
	a.journal = a.journal[:0]
}

// The mutators below change the document, journal the inverse and report
// the change. a.ptr must hold the concrete pointer of the target when a
// recorder is set.

func (a *applier) objectSet(o *jsontree.Object, key string, v jsontree.Value) error {
	if a.bounded {
		d := jsontree.MemberSize(key, true, v)
		if old, ok := o.Get(key); ok {
			d -= jsontree.MemberSize(key, true, old)
		}
		if err := a.grow(d); err != nil {
			return err
		}
	}
	old, existed := o.Set(key, v)
	if existed {
		a.journal = append(a.journal, undo{kind: undoObjectSet, obj: o, key: key, old: old})
		a.record(KindReplace, v)
	} else {
		a.journal = append(a.journal, undo{kind: undoObjectAdd, obj: o, key: key})
		a.record(KindAdd, v)
	}
	return nil
}

// grow accounts for a mutation that changes the document's size by d,
// refusing it when the result would exceed the bound.
func (a *applier) grow(d int64) error {
	if d > 0 && a.size+d > a.max {
		return a.fail(CodeTooLarge)
	}
	a.size += d
	return nil
}

func (a *applier) objectRemove(o *jsontree.Object, key string) jsontree.Value {
	old, pos := o.Delete(key)
	if a.bounded {
		a.size -= jsontree.MemberSize(key, true, old)
	}
	a.journal = append(a.journal, undo{kind: undoObjectRemove, obj: o, key: key, pos: pos, old: old})
	a.recordRemove()
	return old
}

func (a *applier) arrayInsert(arr *jsontree.Array, i int, v jsontree.Value) error {
	if a.bounded {
		if err := a.grow(jsontree.MemberSize("", false, v)); err != nil {
			return err
		}
	}
	arr.Elems = slices.Insert(arr.Elems, i, v)
	a.journal = append(a.journal, undo{kind: undoArrayInsert, arr: arr, pos: i})
	a.record(KindAdd, v)
	return nil
}

func (a *applier) arraySet(arr *jsontree.Array, i int, v jsontree.Value) error {
	old := arr.Elems[i]
	if a.bounded {
		if err := a.grow(jsontree.Size(v) - jsontree.Size(old)); err != nil {
			return err
		}
	}
	arr.Elems[i] = v
	a.journal = append(a.journal, undo{kind: undoArraySet, arr: arr, pos: i, old: old})
	a.record(KindReplace, v)
	return nil
}

func (a *applier) arrayRemove(arr *jsontree.Array, i int) jsontree.Value {
	old := arr.Elems[i]
	if a.bounded {
		a.size -= jsontree.MemberSize("", false, old)
	}
	arr.Elems = slices.Delete(arr.Elems, i, i+1)
	a.journal = append(a.journal, undo{kind: undoArrayRemove, arr: arr, pos: i, old: old})
	a.recordRemove()
	return old
}
