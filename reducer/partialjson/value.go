package partialjson

import "github.com/agui-reducer/agui/reducer/jsontree"

// Value returns a copy of the live value, or false if no value has begun.
// The copy shares no container with the parser (strings are immutable)
// and costs O(size); see the package documentation for what the live
// value contains.
func (p *Parser) Value() (jsontree.Value, bool) {
	if !p.started {
		return nil, false
	}
	// Copy iteratively: the depth is bounded only by Options.MaxDepth.
	type job struct{ src, dst jsontree.Value }
	root := p.shallowCopy(p.root)
	var todo []job
	if isContainer(root) {
		todo = append(todo, job{p.root, root})
	}
	for len(todo) > 0 {
		j := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch src := j.src.(type) {
		case *jsontree.Object:
			dst := j.dst.(*jsontree.Object)
			for i := range src.Len() {
				v := src.ValueAt(i)
				c := p.shallowCopy(v)
				dst.Set(src.KeyAt(i), c)
				if isContainer(c) {
					todo = append(todo, job{v, c})
				}
			}
		case *jsontree.Array:
			dst := j.dst.(*jsontree.Array)
			for _, v := range src.Elems {
				c := p.shallowCopy(v)
				dst.Elems = append(dst.Elems, c)
				if isContainer(c) {
					todo = append(todo, job{v, c})
				}
			}
		}
	}
	return root, true
}

// shallowCopy returns an empty container of v's size for a container, the
// text so far for the open string, and v itself otherwise. (Not inlined:
// Value would carry two copies of it, for no gain worth the module's size.)
//
//go:noinline
func (p *Parser) shallowCopy(v jsontree.Value) jsontree.Value {
	switch v := v.(type) {
	case *jsontree.Object:
		return jsontree.NewObject(v.Len())
	case *jsontree.Array:
		return &jsontree.Array{Elems: make([]jsontree.Value, 0, len(v.Elems))}
	case openString:
		return p.str.text()
	}
	return v
}

func isContainer(v jsontree.Value) bool {
	switch v.(type) {
	case *jsontree.Object, *jsontree.Array:
		return true
	}
	return false
}
