package jsontree

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestFromGo(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, `null`},
		{true, `true`},
		{"s\xff", `"s�"`},
		{0.0, `0`},
		{math.Copysign(0, -1), `0`},
		{1.0, `1`},
		{-2.5, `-2.5`},
		{0.1, `0.1`},
		{1e20, `100000000000000000000`},
		{1e21, `1e+21`},
		{1e-6, `0.000001`},
		{1e-7, `1e-7`},
		{123456789.125, `123456789.125`},
		{float32(0.1), `0.1`},
		{int(-7), `-7`},
		{int64(math.MaxInt64), `9223372036854775807`},
		{uint64(math.MaxUint64), `18446744073709551615`},
		{uint8(255), `255`},
		{json.Number("1e400"), `1e400`},
		{Number("-0.0"), `-0.0`},
		{[]any{1.0, "a", nil, []any{}}, `[1,"a",null,[]]`},
		{map[string]any{"b": 1.0, "a": map[string]any{"z": true, "c": false}}, `{"a":{"c":false,"z":true},"b":1}`},
		{map[string]any{}, `{}`},
		{[]any{mustParse(t, `{"y":1,"x":[2]}`)}, `[{"y":1,"x":[2]}]`},
	}
	for _, tt := range tests {
		v, err := FromGo(tt.in)
		if err != nil {
			t.Errorf("FromGo(%#v): %v", tt.in, err)
			continue
		}
		if got := string(AppendJSON(nil, v)); got != tt.want {
			t.Errorf("FromGo(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestFromGoErrors(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	tests := []struct {
		in   any
		code string
	}{
		{math.NaN(), CodeUnsupportedValue},
		{math.Inf(1), CodeUnsupportedValue},
		{json.Number("01"), CodeInvalidNumber},
		{json.Number(""), CodeInvalidNumber},
		{Number("1x"), CodeInvalidNumber},
		{struct{}{}, CodeUnsupportedType},
		{[]string{"a"}, CodeUnsupportedType},
		{map[string]any{"a": []any{complex(1, 2)}}, CodeUnsupportedType},
		{cyclic, CodeTooDeep},
	}
	for _, tt := range tests {
		_, err := FromGo(tt.in)
		var ce *ConvertError
		if !errors.As(err, &ce) || ce.Code != tt.code {
			t.Errorf("FromGo(%T): err = %v, want code %s", tt.in, err, tt.code)
		}
	}
}

func TestFromGoCopies(t *testing.T) {
	src := mustParse(t, `{"a":[1]}`)
	v, err := FromGo(src)
	if err != nil {
		t.Fatal(err)
	}
	mutateAll(v)
	if got := string(AppendJSON(nil, src)); got != `{"a":[1]}` {
		t.Errorf("FromGo aliased its input: %s", got)
	}
}
