package jsonpatch

import "github.com/agui-reducer/agui/reducer/jsontree"

// A Change is one effective mutation made by Apply, normalized so that it
// can be replayed with plain RFC 6902 semantics on a copy of the original
// document.
type Change struct {
	// Op is "add", "replace" or "remove". An add that overwrites an
	// existing object member is reported as "replace"; a move is a
	// "remove" followed by an "add" (or "replace"); a copy is an "add"
	// (or "replace"); a test is not reported. Operations on the whole
	// document, including remove, are reported as "replace" of "".
	Op string
	// Path is the concrete JSON Pointer of the target: array indices are
	// canonical decimal numbers ("-", "01" and "" resolved) and object keys
	// are re-escaped.
	Path string
	// Value is the JSON encoding (jsontree.AppendJSON) of the value written,
	// taken when the operation ran, since later operations of the same
	// patch may change it in place. It is nil for "remove".
	Value []byte
}

// A Recorder receives the Changes of a patch as they happen. When Apply
// fails it has already been given the changes of the operations before the
// failing one; they were undone and the caller must discard them.
type Recorder func(Change)

// Apply applies ops to doc in order, all or nothing, and returns the new
// document root (an operation on the path "" replaces the root).
//
// doc is changed in place and its old root must no longer be used after a
// successful Apply; values from ops are copied before they are inserted.
// If an operation fails, every change already made is undone — including
// object key order — and Apply returns doc itself, exactly as it was, with
// an *Error. The cost is proportional to the paths and values touched, not
// to the size of doc.
//
// rec, if not nil, is called for every change; with a nil rec no values are
// encoded.
func Apply(doc jsontree.Value, ops []Op, rec Recorder) (jsontree.Value, error) {
	return ApplyBounded(doc, ops, rec, nil)
}

// Bounds limit what ApplyBounded may build.
type Bounds struct {
	// Size is the jsontree.Size of the document; ApplyBounded keeps it
	// up to date incrementally (the cost follows the values inserted and
	// removed, never the document) and updates it on success.
	Size int64
	// MaxSize, if positive, refuses with CodeTooLarge an operation that
	// would make Size exceed it, before the memory is spent: the value a
	// copy or move takes is measured before it is cloned, and the values
	// copied or moved by one patch may not add up to more than MaxSize
	// either (each is also encoded for the recorder).
	MaxSize int64
	// ObjectRoot refuses with CodeRootNotObject a patch whose result is
	// not an object.
	ObjectRoot bool
	// Journal, if not nil, keeps the undo records of a successful patch,
	// so that the caller can later undo it with the patches before and
	// after it (see Journal).
	Journal *Journal
}

// A Journal collects the undo records of successive patches. Rolled back,
// it puts every container those patches changed in place back as it was,
// newest change first; a patch that replaced the root leaves the old root
// to the caller, who keeps it. It holds the values the patches removed.
type Journal struct{ undos []undo }

// Len is the number of undo records held.
func (j *Journal) Len() int { return len(j.undos) }

// Rollback undoes every record after the first n and forgets them.
func (j *Journal) Rollback(n int) {
	a := applier{journal: j.undos[n:]}
	a.rollback()
	clear(j.undos[n:])
	j.undos = j.undos[:n]
}

// Reset forgets every record, undoing nothing.
func (j *Journal) Reset() {
	clear(j.undos)
	j.undos = j.undos[:0]
}

// ApplyBounded is Apply within bounds (nil: none). On failure b is
// unchanged.
func ApplyBounded(doc jsontree.Value, ops []Op, rec Recorder, b *Bounds) (jsontree.Value, error) {
	if rec != nil && b != nil && b.MaxSize > 0 && copiesOrMoves(ops) {
		// A patch that copies or moves may take up to MaxSize bytes, and
		// the recorder encodes every value taken: check the patch without
		// recording first, so that one refused costs no encoding.
		dry := applier{root: doc, journal: make([]undo, 0, min(2*len(ops), 32))}
		dry.bounded, dry.size, dry.max = true, b.Size, b.MaxSize
		if err := dry.run(ops, b); err != nil {
			return doc, err
		}
		dry.rollback()
	}
	// Sized for the common patch: a few entries per op, one allocation.
	a := applier{root: doc, rec: rec, journal: make([]undo, 0, min(2*len(ops), 32))}
	if b != nil {
		a.bounded, a.size, a.max = b.MaxSize > 0, b.Size, b.MaxSize
	}
	if err := a.run(ops, b); err != nil {
		return doc, err
	}
	if b != nil && a.bounded {
		b.Size = a.size
	}
	if b != nil && b.Journal != nil {
		b.Journal.undos = append(b.Journal.undos, a.journal...)
	}
	return a.root, nil
}

// run applies ops; on failure it rolls back and returns the error.
func (a *applier) run(ops []Op, b *Bounds) error {
	for i := range ops {
		a.index = i
		if err := a.apply(&ops[i]); err != nil {
			a.rollback()
			return err
		}
	}
	if b != nil && b.ObjectRoot {
		if o, ok := a.root.(*jsontree.Object); !ok || o == nil {
			a.index = len(ops) - 1
			a.rollback()
			return a.fail(CodeRootNotObject)
		}
	}
	return nil
}

func copiesOrMoves(ops []Op) bool {
	for i := range ops {
		if ops[i].Kind == KindCopy || ops[i].Kind == KindMove {
			return true
		}
	}
	return false
}

type applier struct {
	root    jsontree.Value
	rec     Recorder
	index   int // of the operation being applied
	journal []undo
	ptr     []byte   // concrete pointer of the current target, when recording
	from    location // source of the current move or copy, once resolved

	// Bounds (see Bounds): the document's size and its limit, and the
	// bytes copied or moved so far.
	bounded         bool
	size, max, took int64
}

// A location is a resolved, existing position in the document.
type location struct {
	parent jsontree.Value // *jsontree.Object or *jsontree.Array; nil for the root
	key    string         // member name, if parent is an object
	pos    int            // element index, if parent is an array
	value  jsontree.Value
	ptr    string // concrete pointer, when recording
}

func (a *applier) fail(code string) *Error { return newError(code, a.index) }

func (a *applier) apply(op *Op) error {
	if err := validate(op, a.index); err != nil {
		return err
	}
	if op.Path == "" {
		return a.applyRoot(op)
	}
	return a.walk(op)
}

// applyRoot handles operations on the whole document.
func (a *applier) applyRoot(op *Op) error {
	switch op.Kind {
	case KindAdd, KindReplace:
		v := jsontree.Clone(op.Value)
		if a.bounded {
			n := jsontree.Size(v)
			if n > a.max {
				return a.fail(CodeTooLarge)
			}
			a.size = n
		}
		a.setRoot(v)
	case KindRemove:
		a.size = 4
		a.setRoot(nil)
	case KindMove, KindCopy:
		// fast-json-patch makes the value at from the new root without
		// copying it; the old root, which still holds it, is dropped.
		loc, err := a.resolveFrom(op.From)
		if err != nil {
			return err
		}
		if a.bounded {
			// The value becomes the root: the rest is dropped.
			n := jsontree.Size(loc.value)
			if n > a.max {
				return a.fail(CodeTooLarge)
			}
			a.size = n
		}
		a.setRoot(loc.value)
		return nil
	case KindTest:
		if !jsontree.Equal(a.root, op.Value) {
			return a.fail(CodeTestFailed)
		}
	}
	return nil
}

// setRoot needs no journal entry: on failure Apply returns the original
// root, and the journal restores everything inside it.
func (a *applier) setRoot(v jsontree.Value) {
	a.root = v
	if a.rec != nil {
		a.ptr = a.ptr[:0]
		a.record(KindReplace, v)
	}
}

// walk follows a non-empty path the way fast-json-patch's validating
// applyOperation does and performs op at its end. The quirks it reproduces
// are described in the package documentation.
func (a *applier) walk(op *Op) error {
	if a.rec != nil {
		a.ptr = a.ptr[:0]
	}
	var (
		cur      = a.root
		rest     = op.Path
		prevRaw  string
		resolved bool // the existing part of the path has been measured
	)
	for first := true; ; first = false {
		var raw string
		raw, rest = nextToken(rest)
		last := rest == ""
		key := unescape(raw)
		if banned(key, prevRaw) {
			return a.fail(CodePathBanned)
		}
		if first && !isContainer(cur) {
			return a.fail(CodePathUnresolvable)
		}
		// At the first token that does not exist, or at the last one if all
		// do, the validator compares the existing prefix with the path.
		if !resolved {
			if exists := has(cur, key); !exists || last {
				resolved = true
				if err := a.checkPrefix(op, exists && last, !exists && last); err != nil {
					return err
				}
			}
		}
		var next jsontree.Value
		found := false
		switch c := cur.(type) {
		case *jsontree.Array:
			i := len(c.Elems)
			if key != "-" {
				if !isDigits(key) {
					return a.fail(CodePathIllegalArrayIndex)
				}
				var ok bool
				if i, ok = parseIndex(key); !ok {
					i = -1 // beyond maxIndex
				}
			}
			if last {
				if op.Kind == KindAdd && (i < 0 || i > len(c.Elems)) {
					return a.fail(CodeValueOutOfBounds)
				}
				if a.rec != nil && i >= 0 {
					a.ptr = appendIndex(a.ptr, i)
				}
				return a.arrayOp(op, c, i)
			}
			if i >= 0 && i < len(c.Elems) {
				next, found = c.Elems[i], true
				if a.rec != nil {
					a.ptr = appendIndex(a.ptr, i)
				}
			}
		case *jsontree.Object:
			if a.rec != nil {
				a.ptr = appendToken(a.ptr, key)
			}
			if last {
				return a.objectOp(op, c, key)
			}
			next, found = c.Get(key)
		}
		if !found || !isContainer(next) {
			return a.fail(CodePathUnresolvable)
		}
		cur, prevRaw = next, raw
	}
}

// checkPrefix is the document-dependent part of fast-json-patch's
// validator. full means the whole path exists; lastMissing means all but
// its last token do.
func (a *applier) checkPrefix(op *Op, full, lastMissing bool) error {
	switch op.Kind {
	case KindAdd:
		if !full && !lastMissing {
			return a.fail(CodePathCannotAdd)
		}
	case KindReplace, KindRemove:
		if !full {
			return a.fail(CodePathUnresolvable)
		}
	case KindMove, KindCopy:
		loc, err := a.resolveFrom(op.From)
		if err != nil {
			return err
		}
		a.from = loc
	}
	return nil
}

// arrayOp performs op on element i of arr (i < 0: beyond maxIndex).
func (a *applier) arrayOp(op *Op, arr *jsontree.Array, i int) error {
	switch op.Kind {
	case KindAdd:
		return a.arrayInsert(arr, i, jsontree.Clone(op.Value))
	case KindReplace:
		// checkPrefix proved the raw token names an element.
		return a.arraySet(arr, i, jsontree.Clone(op.Value))
	case KindRemove:
		a.arrayRemove(arr, i)
	case KindTest:
		if i < 0 || i >= len(arr.Elems) || !jsontree.Equal(arr.Elems[i], op.Value) {
			return a.fail(CodeTestFailed)
		}
	case KindMove:
		return a.moveTo(op)
	case KindCopy:
		return a.copyTo(op)
	}
	return nil
}

// objectOp performs op on member key of o.
func (a *applier) objectOp(op *Op, o *jsontree.Object, key string) error {
	switch op.Kind {
	case KindAdd, KindReplace:
		return a.objectSet(o, key, jsontree.Clone(op.Value))
	case KindRemove:
		a.objectRemove(o, key)
	case KindTest:
		v, ok := o.Get(key)
		if !ok || !jsontree.Equal(v, op.Value) {
			return a.fail(CodeTestFailed)
		}
	case KindMove:
		return a.moveTo(op)
	case KindCopy:
		return a.copyTo(op)
	}
	return nil
}

// moveTo removes the value at a.from, then adds it at op.Path without
// validation, as fast-json-patch does; the removal may have shifted or
// removed what the path leads through.
func (a *applier) moveTo(op *Op) error {
	loc := a.from
	if loc.parent == nil {
		// fast-json-patch would store the document inside itself.
		return a.fail(CodePathUnresolvable)
	}
	if err := a.take(loc.value); err != nil {
		return err
	}
	a.ptr = append(a.ptr[:0], loc.ptr...)
	switch p := loc.parent.(type) {
	case *jsontree.Object:
		a.objectRemove(p, loc.key)
	case *jsontree.Array:
		a.arrayRemove(p, loc.pos)
	}
	return a.addLoose(op.Path, loc.value)
}

// copyTo adds a deep copy of the value at a.from at op.Path without
// validation.
func (a *applier) copyTo(op *Op) error {
	if err := a.take(a.from.value); err != nil {
		return err
	}
	return a.addLoose(op.Path, jsontree.Clone(a.from.value))
}

// take counts a value a copy or move is about to take against the bound,
// before anything is cloned or encoded.
func (a *applier) take(v jsontree.Value) error {
	if !a.bounded {
		return nil
	}
	a.took += jsontree.Size(v)
	if a.took > a.max {
		return a.fail(CodeTooLarge)
	}
	return nil
}

// addLoose is fast-json-patch's unvalidated add, which move and copy use
// internally: an index beyond the end appends (Array.prototype.splice
// clamps it), and a non-index token on an array sets a property JSON
// cannot hold, so the value is dropped. Where JavaScript would throw a
// TypeError (a missing or scalar parent) it fails.
func (a *applier) addLoose(path string, v jsontree.Value) error {
	if a.rec != nil {
		a.ptr = a.ptr[:0]
	}
	cur, rest := a.root, path
	for {
		var raw string
		raw, rest = nextToken(rest)
		last := rest == ""
		key := unescape(raw)
		if !isContainer(cur) {
			return a.fail(CodePathUnresolvable)
		}
		var next jsontree.Value
		found := false
		switch c := cur.(type) {
		case *jsontree.Array:
			i, index := len(c.Elems), true
			switch {
			case key == "-":
			case isDigits(key):
				var ok bool
				if i, ok = parseIndex(key); !ok {
					return a.fail(CodeValueOutOfBounds)
				}
			default:
				index = false
			}
			if last {
				if !index {
					return nil // arr[key] = v: invisible in JSON
				}
				i = min(i, len(c.Elems))
				if a.rec != nil {
					a.ptr = appendIndex(a.ptr, i)
				}
				return a.arrayInsert(c, i, v)
			}
			if index && i < len(c.Elems) {
				next, found = c.Elems[i], true
				if a.rec != nil {
					a.ptr = appendIndex(a.ptr, i)
				}
			}
		case *jsontree.Object:
			if a.rec != nil {
				a.ptr = appendToken(a.ptr, key)
			}
			if last {
				return a.objectSet(c, key, v)
			}
			next, found = c.Get(key)
		}
		if !found {
			return a.fail(CodePathUnresolvable)
		}
		cur = next // checked at the top of the loop
	}
}

// resolveFrom finds the existing location from names, as the validator's
// "_get" probe does: every token must name an existing member or element.
func (a *applier) resolveFrom(from string) (location, error) {
	if from == "" {
		return location{value: a.root}, nil
	}
	if from[0] != '/' {
		return location{}, a.fail(CodeFromUnresolvable)
	}
	var ptr []byte
	cur, rest, prevRaw := a.root, from, ""
	for first := true; ; first = false {
		var raw string
		raw, rest = nextToken(rest)
		key := unescape(raw)
		if banned(key, prevRaw) {
			return location{}, a.fail(CodePathBanned)
		}
		if first && !isContainer(cur) {
			return location{}, a.fail(CodeFromUnresolvable)
		}
		loc := location{parent: cur}
		switch c := cur.(type) {
		case *jsontree.Array:
			i, ok := elementKey(key, len(c.Elems))
			if !ok {
				return location{}, a.fail(CodeFromUnresolvable)
			}
			loc.pos, loc.value = i, c.Elems[i]
			if a.rec != nil {
				ptr = appendIndex(ptr, i)
			}
		case *jsontree.Object:
			v, ok := c.Get(key)
			if !ok {
				return location{}, a.fail(CodeFromUnresolvable)
			}
			loc.key, loc.value = key, v
			if a.rec != nil {
				ptr = appendToken(ptr, key)
			}
		}
		if rest == "" {
			loc.ptr = string(ptr)
			return loc, nil
		}
		if !isContainer(loc.value) {
			return location{}, a.fail(CodeFromUnresolvable)
		}
		cur, prevRaw = loc.value, raw
	}
}

func (a *applier) record(kind string, v jsontree.Value) {
	if a.rec != nil {
		a.rec(Change{Op: kind, Path: string(a.ptr), Value: jsontree.AppendJSON(nil, v)})
	}
}

func (a *applier) recordRemove() {
	if a.rec != nil {
		a.rec(Change{Op: KindRemove, Path: string(a.ptr)})
	}
}

// isContainer reports a non-nil *Array or *Object.
func isContainer(v jsontree.Value) bool {
	switch c := v.(type) {
	case *jsontree.Array:
		return c != nil
	case *jsontree.Object:
		return c != nil
	}
	return false
}

// has reports whether container c has a member or element named key, as
// c[key] !== undefined does for own properties in JavaScript.
func has(c jsontree.Value, key string) bool {
	switch c := c.(type) {
	case *jsontree.Array:
		_, ok := elementKey(key, len(c.Elems))
		return ok
	case *jsontree.Object:
		return c.Find(key) >= 0
	}
	return false
}
