package jsontree

import "testing"

func TestClone(t *testing.T) {
	tests := []string{
		`null`, `true`, `1.50`, `"s"`, `[]`, `{}`,
		`{"b":[1,{"c":[]}],"a":{"x":null}}`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":{"n":[9]}}`,
	}
	for _, in := range tests {
		orig := mustParse(t, in)
		c := Clone(orig)
		if got := string(AppendJSON(nil, c)); got != in {
			t.Errorf("Clone(%s) = %s", in, got)
		}
		if !Equal(orig, c) {
			t.Errorf("Clone(%s) not Equal", in)
		}
		checkIndex(t, c)
		// Mutating every container of the copy must leave the original alone.
		mutateAll(c)
		if got := string(AppendJSON(nil, orig)); got != in {
			t.Errorf("original changed to %s after mutating its clone", got)
		}
	}
}

// mutateAll changes every container in v.
func mutateAll(v Value) {
	stack := []Value{v}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := v.(type) {
		case *Array:
			stack = append(stack, x.Elems...)
			x.Elems = append(x.Elems, "added")
			if len(x.Elems) > 1 {
				x.Elems[0] = "changed"
			}
		case *Object:
			for i := 0; i < x.Len(); i++ {
				stack = append(stack, x.ValueAt(i))
			}
			x.Set("added", true)
			if x.Len() > 1 {
				x.Set(x.KeyAt(0), "changed")
			}
		}
	}
}

func TestCloneDeep(t *testing.T) {
	const n = 1_000_000
	d := deepArray(n)
	c := Clone(d)
	if !Equal(d, c) {
		t.Error("deep clone differs")
	}
	if c.(*Array) == d.(*Array) {
		t.Error("clone shares the root")
	}
}

func TestCloneNil(t *testing.T) {
	if v := Clone((*Array)(nil)); v != (*Array)(nil) {
		t.Errorf("Clone(nil *Array) = %#v", v)
	}
	a := &Array{Elems: []Value{(*Object)(nil)}}
	if c := Clone(a).(*Array); c.Elems[0] != (*Object)(nil) {
		t.Errorf("Clone kept %#v", c.Elems[0])
	}
}
