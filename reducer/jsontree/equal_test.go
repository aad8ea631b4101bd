package jsontree

import "testing"

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`true`, `true`, true},
		{`true`, `false`, false},
		{`1`, `1`, true},
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1E2`, true},
		{`0`, `-0`, true},
		{`0.1`, `0.10000000000000001`, true}, // same float64
		{`1`, `2`, false},
		{`1e400`, `2e400`, true}, // both Infinity
		{`1e400`, `-1e400`, false},
		{`1`, `"1"`, false},
		{`"a"`, `"a"`, true},
		{`"a"`, `"b"`, false},
		{`""`, `null`, false},
		{`[]`, `[]`, true},
		{`[]`, `{}`, false},
		{`[1,2]`, `[1,2]`, true},
		{`[1,2]`, `[2,1]`, false},
		{`[1,2]`, `[1,2,3]`, false},
		{`[1,[2,[3]]]`, `[1.0,[2,[3e0]]]`, true},
		{`[1,[2,[3]]]`, `[1,[2,[4]]]`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`{"a":1,"b":2}`, `{"a":1,"c":2}`, false},
		{`{"a":1,"b":2}`, `{"a":1}`, false},
		{`{"a":null}`, `{}`, false},
		{`{"a":{"x":[{"y":1}]}}`, `{"a":{"x":[{"y":1.0}]}}`, true},
		{`{"a":{"x":[{"y":1}]}}`, `{"a":{"x":[{"y":"1"}]}}`, false},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9}`,
			`{"k9":9,"k8":8,"k7":7,"k6":6,"k5":5,"k4":4,"k3":3,"k2":2,"k1":1,"k0":0}`, true},
		{`[{"a":[]}]`, `[{"a":{}}]`, false},
	}
	for _, tt := range tests {
		a, b := mustParse(t, tt.a), mustParse(t, tt.b)
		if got := Equal(a, b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Equal(b, a); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestEqualOddValues(t *testing.T) {
	tests := []struct {
		a, b Value
		want bool
	}{
		{(*Array)(nil), nil, true},
		{(*Object)(nil), nil, true},
		{(*Array)(nil), &Array{}, false},
		{Number("x"), Number("x"), true}, // identical text needs no parsing
		{Number("x"), Number("y"), false},
		{42, 42, false}, // not a Value
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestEqualDeep(t *testing.T) {
	const n = 1_000_000
	if !Equal(deepArray(n), deepArray(n)) {
		t.Error("deep arrays differ")
	}
	if Equal(deepArray(n), deepArray(n+1)) {
		t.Error("arrays of different depth are equal")
	}
}
