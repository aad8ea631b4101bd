package jsontree

import "slices"

// indexThreshold is the size above which an Object keeps a key index; below
// it a linear scan is faster than hashing.
const indexThreshold = 8

// Object is a JSON object that remembers key insertion order, as JavaScript
// objects and JSON.stringify do. Keys are unique.
type Object struct {
	keys  []string
	vals  []Value
	index map[string]int // key → position; nil while small
}

// NewObject returns an empty object with room for n keys.
func NewObject(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// Len returns the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// KeyAt returns the i-th key in insertion order.
func (o *Object) KeyAt(i int) string { return o.keys[i] }

// ValueAt returns the i-th value in insertion order.
func (o *Object) ValueAt(i int) Value { return o.vals[i] }

// Keys returns the keys in insertion order. The slice must not be modified.
func (o *Object) Keys() []string { return o.keys }

// Find returns the position of key, or -1.
func (o *Object) Find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Get returns the value stored under key.
func (o *Object) Get(key string) (Value, bool) {
	if i := o.Find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Set stores v under key. An existing key keeps its position; a new key is
// appended. It reports the previous value and whether the key existed.
func (o *Object) Set(key string, v Value) (old Value, existed bool) {
	if i := o.Find(key); i >= 0 {
		old = o.vals[i]
		o.vals[i] = v
		return old, true
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[key] = len(o.keys) - 1
	} else if len(o.keys) > indexThreshold {
		o.reindex()
	}
	return nil, false
}

// Delete removes key and reports its value and former position (-1 if absent).
func (o *Object) Delete(key string) (old Value, pos int) {
	i := o.Find(key)
	if i < 0 {
		return nil, -1
	}
	old = o.vals[i]
	// slices.Delete also clears the vacated tail slot, so the removed
	// value is not kept alive by the backing array.
	o.keys = slices.Delete(o.keys, i, i+1)
	o.vals = slices.Delete(o.vals, i, i+1)
	if o.index != nil {
		delete(o.index, key)
		for j := i; j < len(o.keys); j++ {
			o.index[o.keys[j]] = j
		}
	}
	return old, i
}

// InsertAt puts a key that is not present at position pos (0 ≤ pos ≤ Len).
// It is how an undo restores a deleted key to its old place.
func (o *Object) InsertAt(pos int, key string, v Value) {
	o.keys = append(o.keys, "")
	o.vals = append(o.vals, nil)
	copy(o.keys[pos+1:], o.keys[pos:])
	copy(o.vals[pos+1:], o.vals[pos:])
	o.keys[pos] = key
	o.vals[pos] = v
	switch {
	case o.index != nil:
		// Only the keys at and after pos moved.
		for j := pos; j < len(o.keys); j++ {
			o.index[o.keys[j]] = j
		}
	case len(o.keys) > indexThreshold:
		o.reindex()
	}
}

func (o *Object) reindex() {
	if o.index == nil {
		o.index = make(map[string]int, len(o.keys)*2)
	}
	for i, k := range o.keys {
		o.index[k] = i
	}
}
