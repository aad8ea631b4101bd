package jsontree

import (
	"errors"
	"strings"
	"testing"
)

// TestParserReuse: one Parser parsing the valid and invalid inputs of
// Parse's tests one after another (and a document deeper and wider than
// the stacks it keeps, and long ones that use the cache) gives Parse's
// results, and the trees it returned earlier stay as they were.
func TestParserReuse(t *testing.T) {
	var inputs []string
	for _, tt := range parseValidTests {
		inputs = append(inputs, tt.in)
	}
	for _, tt := range parseInvalidTests {
		inputs = append(inputs, tt.in)
	}
	inputs = append(inputs,
		strings.Repeat("[", 100)+strings.Repeat("]", 100),
		"["+strings.Repeat(`"abc",`, 100)+`"abc"]`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"`+strings.Repeat("x", 300)+`","role":"tool"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"c1","content":"`+strings.Repeat("y", 300)+`","role":"tool","n":[1,2,{"k":"tool"}]}`,
		`{"a":[1,{"b":`, // fails with open containers on the stacks
		`{"a":1}`,
	)
	var p Parser
	type kept struct {
		v    Value
		json string
	}
	var trees []kept
	for round := 0; round < 2; round++ {
		for _, in := range inputs {
			want, wantErr := Parse([]byte(in), ParseOptions{})
			got, err := p.Parse([]byte(in), ParseOptions{})
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("Parser.Parse(%.40q): error %v, Parse's %v", in, err, wantErr)
			}
			if err != nil {
				var se, wse *SyntaxError
				if !errors.As(err, &se) || !errors.As(wantErr, &wse) || *se != *wse {
					t.Errorf("Parser.Parse(%.40q): %v, Parse: %v", in, err, wantErr)
				}
				continue
			}
			if !Equal(got, want) {
				t.Errorf("Parser.Parse(%.40q) = %s, Parse: %s", in, AppendJSON(nil, got), AppendJSON(nil, want))
			}
			trees = append(trees, kept{got, string(AppendJSON(nil, got))})
		}
	}
	for _, k := range trees {
		if got := string(AppendJSON(nil, k.v)); got != k.json {
			t.Errorf("a tree changed after later parses: %.60s, was %.60s", got, k.json)
		}
	}
	if cap(p.vals) > maxKeptStack || cap(p.stack) > maxKeptStack || cap(p.keys) > maxKeptStack {
		t.Errorf("the Parser keeps stacks of %d, %d, %d slots (at most %d)", cap(p.stack), cap(p.vals), cap(p.keys), maxKeptStack)
	}
	for _, v := range p.vals[:cap(p.vals)] {
		if v != nil {
			t.Fatalf("the Parser's stack still holds %v", v)
		}
	}
}

// TestParserAllocs: parsing a small event again allocates only its tree,
// not the stacks.
func TestParserAllocs(t *testing.T) {
	data := []byte(`{"type":"TEXT_MESSAGE_END","messageId":"msg_RshYtgszWQ8DFqT6BjWqHLPu"}`)
	var p Parser
	if _, err := p.Parse(data, ParseOptions{}); err != nil {
		t.Fatal(err)
	}
	fresh := testing.AllocsPerRun(100, func() { _, _ = Parse(data, ParseOptions{}) })
	reused := testing.AllocsPerRun(100, func() { _, _ = p.Parse(data, ParseOptions{}) })
	if reused >= fresh {
		t.Errorf("Parser.Parse allocates %v times, Parse %v", reused, fresh)
	}
}
