package reducer

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

const weatherTool = `{"name":"get_weather","description":"Weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"],"additionalProperties":false}}`

func parseJSON(t testing.TB, s string) jsontree.Value {
	t.Helper()
	v, err := jsontree.Parse([]byte(s), jsontree.ParseOptions{})
	require.NoError(t, err)
	return v
}

func argsEvents(name string, deltas ...string) []string {
	ev := []string{`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"` + name + `"}`}
	for _, d := range deltas {
		ev = append(ev, `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":`+strconv.Quote(d)+`}`)
	}
	return append(ev, `{"type":"TOOL_CALL_END","toolCallId":"c1"}`)
}

func argsErrorsOf(tc map[string]any) []string {
	var out []string
	list, _ := tc["argsErrors"].([]any)
	for _, e := range list {
		m := e.(map[string]any)
		out = append(out, m["path"].(string)+" "+m["keyword"].(string)+": "+m["message"].(string))
	}
	return out
}

// TestTruncatedArgs: arguments that do not parse at TOOL_CALL_END make
// the call invalid (truncated), never complete, with or without a schema.
func TestTruncatedArgs(t *testing.T) {
	for _, opt := range []Options{{}, {Tools: parseJSON(t, "["+weatherTool+"]")}} {
		r := New(opt)
		cs := foldLines(t, r, argsEvents("get_weather", `{"city":"Par`))
		tc := tool(snapshotOf(t, r), 0)
		assert.Equal(t, "error", tc["status"])
		assert.Equal(t, "invalid", tc["argsStatus"])
		assert.Equal(t, map[string]any{}, tc["args"])
		errs := argsErrorsOf(tc)
		require.Len(t, errs, 1)
		assert.True(t, strings.HasPrefix(errs[0], " truncated: "), errs[0])
		assert.Contains(t, codes(cs), "bad_args")
	}
	// A member complete before the cut stays in safeArgs.
	r := New(Options{Tools: parseJSON(t, "["+weatherTool+"]")})
	foldLines(t, r, argsEvents("get_weather", `{"city":"Paris","days":3,"unit":"cel`))
	tc := tool(snapshotOf(t, r), 0)
	assert.Equal(t, map[string]any{"city": "Paris", "days": float64(3)}, tc["safeArgs"])
}

// TestArgsValidationStreams: an unrepairable error is in the state at the
// event that completes the offending value; safeArgs holds only complete,
// valid members; the final verdict comes at TOOL_CALL_END.
func TestArgsValidationStreams(t *testing.T) {
	r := New(Options{})
	r.SetTools(parseJSON(t, "["+weatherTool+"]"))
	events := argsEvents("get_weather", `{"city":"Pa`, `ris","unit":"kel`, `vin","da`, `ys":3,"extra":true`, `}`)
	m := newMirror(t, r)
	var seen []map[string]any
	for i, l := range events {
		c := applyLine(r, l)
		m.apply(t, c)
		m.check(t, r, "event "+strconv.Itoa(i))
		seen = append(seen, tool(snapshotOf(t, r), 0))
	}
	assert.Equal(t, "streaming", seen[0]["argsStatus"])
	assert.Equal(t, map[string]any{}, seen[0]["safeArgs"])
	assert.Equal(t, "streaming", seen[1]["argsStatus"], "a prefix some continuation makes valid")
	assert.Equal(t, "streaming", seen[2]["argsStatus"], `"kel" may still become a unit`)
	assert.Equal(t, map[string]any{"city": "Paris"}, seen[2]["safeArgs"])
	assert.Equal(t, "invalid", seen[3]["argsStatus"], "the event that closes the string")
	assert.Equal(t, []string{"/unit enum: must be one of celsius, fahrenheit"}, argsErrorsOf(seen[3]))
	assert.Equal(t, map[string]any{"city": "Paris"}, seen[3]["safeArgs"], "no out-of-enum string")
	assert.Equal(t, []string{"/unit enum: must be one of celsius, fahrenheit", `/extra additionalProperties: property "extra" is not allowed`}, argsErrorsOf(seen[4]))
	assert.Equal(t, map[string]any{"city": "Paris", "days": float64(3)}, seen[4]["safeArgs"])
	end := seen[6]
	assert.Equal(t, "complete", end["status"])
	assert.Equal(t, "invalid", end["argsStatus"])
	assert.Len(t, argsErrorsOf(end), 2)

	// Valid arguments: streaming, then valid; safeArgs ends as args.
	r = New(Options{Tools: parseJSON(t, "["+weatherTool+"]")})
	foldLines(t, r, argsEvents("get_weather", `{"city":"Paris",`, `"unit":"celsius"}`))
	tc := tool(snapshotOf(t, r), 0)
	assert.Equal(t, "valid", tc["argsStatus"])
	assert.Nil(t, tc["argsErrors"])
	assert.Equal(t, tc["args"], tc["safeArgs"])

	// required is judged at the end.
	r = New(Options{Tools: parseJSON(t, "["+weatherTool+"]")})
	foldLines(t, r, argsEvents("get_weather", `{"unit":"celsius"}`))
	tc = tool(snapshotOf(t, r), 0)
	assert.Equal(t, "invalid", tc["argsStatus"])
	assert.Equal(t, []string{` required: missing required property "city"`}, argsErrorsOf(tc))
	assert.Equal(t, map[string]any{"unit": "celsius"}, tc["safeArgs"])
}

// TestToolSources: the schemas come from RUN_STARTED.input.tools, from
// RunInput's tools and from SetTools/Options.Tools; an unknown tool is
// unchecked, and says so.
func TestToolSources(t *testing.T) {
	bad := argsEvents("get_weather", `{"city":"Paris","days":30}`)
	check := func(t *testing.T, r *Reducer, lines []string, want string) {
		t.Helper()
		foldLines(t, r, lines)
		assert.Equal(t, want, tool(snapshotOf(t, r), 0)["argsStatus"])
	}
	t.Run("unknown", func(t *testing.T) { check(t, New(Options{}), bad, "unchecked") })
	t.Run("RUN_STARTED.input.tools", func(t *testing.T) {
		start := `{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[],"tools":[` + weatherTool + `],"context":[],"state":{},"forwardedProps":{}}}`
		check(t, New(Options{}), append([]string{start}, bad...), "invalid")
	})
	t.Run("RunInput", func(t *testing.T) {
		r := New(Options{})
		r.RunInput(RunInputOptions{Tools: parseJSON(t, "["+weatherTool+"]")})
		check(t, r, bad, "invalid")
	})
	t.Run("SetTools", func(t *testing.T) {
		r := New(Options{})
		r.SetTools(parseJSON(t, "["+weatherTool+"]"))
		check(t, r, bad, "invalid")
	})
	t.Run("not checked keywords", func(t *testing.T) {
		r := New(Options{Tools: parseJSON(t, `[{"name":"get_weather","parameters":{"type":"object","propertyNames":{"maxLength":3},"if":{"required":["a"]},"then":{"required":["b"]}}}]`)})
		cs := foldLines(t, r, bad)
		tc := tool(snapshotOf(t, r), 0)
		assert.Equal(t, "valid", tc["argsStatus"])
		assert.Equal(t, []string{"schema_not_checked"}, codes(cs))
		assert.Contains(t, cs[0].Diagnostics[0].Message, "propertyNames, if, then")
		// Once per schema.
		cs = foldLines(t, r, []string{`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"get_weather"}`})
		assert.Empty(t, codes(cs))
	})
}

// TestArgsValidationRestore: a snapshot taken while a call streams
// restores its verdict, and validation goes on after it.
func TestArgsValidationRestore(t *testing.T) {
	opt := Options{Tools: parseJSON(t, "["+weatherTool+"]")}
	events := argsEvents("get_weather", `{"unit":"kelvin",`, `"city":"Paris"}`)
	r := New(opt)
	foldLines(t, r, events[:2])
	r2 := New(opt)
	_, err := r2.Restore(r.Snapshot())
	require.NoError(t, err)
	require.Equal(t, string(r.Snapshot()), string(r2.Snapshot()))
	foldLines(t, r2, events[2:])
	tc := tool(snapshotOf(t, r2), 0)
	assert.Equal(t, "invalid", tc["argsStatus"])
	assert.Equal(t, map[string]any{"city": "Paris"}, tc["safeArgs"])
}

// TestTruncatedNeverComplete: cut anywhere, in random deltas, a call's
// arguments never end complete and valid unless the whole text arrived.
func TestTruncatedNeverComplete(t *testing.T) {
	text := `{"city": "Paris", "unit": "celsius", "days": 12}`
	rng := rand.New(rand.NewPCG(7, 8))
	for cut := 0; cut <= len(text); cut++ {
		var deltas []string
		for rest := text[:cut]; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(6))
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		r := New(Options{Tools: parseJSON(t, "["+weatherTool+"]")})
		foldLines(t, r, argsEvents("get_weather", deltas...))
		tc := tool(snapshotOf(t, r), 0)
		if cut == len(text) {
			assert.Equal(t, "complete", tc["status"])
			assert.Equal(t, "valid", tc["argsStatus"])
			continue
		}
		if cut == 0 {
			// No argument text at all reads as {}: city is missing.
			assert.Equal(t, "invalid", tc["argsStatus"])
			continue
		}
		assert.NotEqual(t, "complete", tc["status"], "cut at %d", cut)
		assert.Equal(t, "invalid", tc["argsStatus"], "cut at %d", cut)
	}
}

// TestArgsValidationReplay: a run cut anywhere and resent from its start
// (a reconnect that the server answers from the beginning) ends with the
// same validation state as the run folded once: the rewind puts the
// validation back with the arguments.
func TestArgsValidationReplay(t *testing.T) {
	opt := Options{Tools: parseJSON(t, "["+weatherTool+"]")}
	lines := append(textRun("t", "r1", "m1", "a"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"get_weather","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"city\":\"Pa"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"ris\",\"days\":3"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"0,\"unit\":\"kelvin\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"d","toolCallName":"get_weather","parentMessageId":"m1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"d","delta":"{\"city\":\"Oslo\",\"unit\":\"cel"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`)
	want := New(opt)
	foldAll(t, want, lines)
	wantSnap := string(want.Snapshot())
	require.Contains(t, wantSnap, `"argsStatus":"invalid"`)
	from := len(textRun("t", "r1", "m1", "a"))
	for cut := from; cut <= len(lines); cut++ {
		r := New(opt)
		foldAll(t, r, lines[:cut])
		foldAll(t, r, lines[from:])
		require.Equal(t, wantSnap, string(r.Snapshot()), "cut at %d", cut)
	}
}

// TestArgsValidationAmend: arguments an amendment replaces are judged
// again, while they stream and once complete.
func TestArgsValidationAmend(t *testing.T) {
	r := New(Options{Tools: parseJSON(t, "["+weatherTool+"]")})
	lines := []string{
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"unit\":\"kelvin\","}`,
		amendPrefix + `{"toolCallId":"c1","argsText":"{\"city\":\"Oslo\","}`,
	}
	foldLines(t, r, lines)
	tc := tool(snapshotOf(t, r), 0)
	assert.Equal(t, "streaming", tc["argsStatus"])
	assert.Nil(t, tc["argsErrors"])
	assert.Equal(t, map[string]any{"city": "Oslo"}, tc["safeArgs"])
	foldLines(t, r, []string{
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"days\":99}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		amendPrefix + `{"toolCallId":"c1","argsText":"{\"city\":\"Oslo\"}"}`,
	})
	tc = tool(snapshotOf(t, r), 0)
	assert.Equal(t, "valid", tc["argsStatus"])
	assert.Nil(t, tc["argsErrors"])
}

// FuzzToolArgs folds a tool call whose arguments are data cut into the
// deltas cuts says, against a schema with nested objects, arrays, anyOf
// and a $ref: the mirror follows the state (foldLines checks it after
// every event), a call whose text does not parse is never complete, and
// one that parses is complete with a final verdict.
func FuzzToolArgs(f *testing.F) {
	const tools = `[{"name":"t","parameters":{"type":"object","$defs":{"p":{"type":"object","properties":{"x":{"type":"integer","maximum":9}},"required":["x"]}},` +
		`"properties":{"s":{"type":"string"},"e":{"enum":["a","b"]},"n":{"type":"number","multipleOf":0.5},"l":{"type":"array","items":{"$ref":"#/$defs/p"},"maxItems":2},` +
		`"u":{"anyOf":[{"type":"null"},{"type":"string","maxLength":3}]}},"additionalProperties":false}}]`
	f.Add(`{"s":"hi","e":"a","n":1.5,"l":[{"x":1}],"u":null}`, []byte{3, 5, 1})
	f.Add(`{"s":"hi","e":"c","n":1.2,"l":[{"x":10},{},{"x":1}],"u":"long","z":0}`, []byte{7})
	f.Add(`{"s":"h\u00e9\ud83d`, []byte{2, 2})
	f.Add(`[1,2`, []byte{1})
	f.Fuzz(func(t *testing.T, data string, cuts []byte) {
		var deltas []string
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, 1+int(cuts[i])%32)
			}
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		r := New(Options{Tools: parseJSON(t, tools)})
		lines := []string{`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"t"}`}
		for _, d := range deltas {
			lines = append(lines, `{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":`+string(jsontree.AppendString(nil, d))+`}`)
		}
		foldLines(t, r, append(lines, `{"type":"TOOL_CALL_END","toolCallId":"c1"}`))
		tc := r.State().ToolCalls[0]
		text := tc.ArgsText() // what arrived (invalid UTF-8 replaced)
		_, err := jsontree.Parse([]byte(text), jsontree.ParseOptions{JSText: true, MaxDepth: r.opt.MaxDepth})
		switch {
		case text != "" && err != nil:
			if tc.Status == ToolComplete || tc.ArgsStatus != ArgsInvalid {
				t.Fatalf("%q does not parse, yet status %s, argsStatus %s", data, tc.Status, tc.ArgsStatus)
			}
		case tc.Status != ToolComplete || tc.ArgsStatus != ArgsValid && tc.ArgsStatus != ArgsInvalid:
			t.Fatalf("%q: status %s, argsStatus %s", data, tc.Status, tc.ArgsStatus)
		}
	})
}
