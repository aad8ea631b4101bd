package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/sse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const scenarioDir = "../../testdata/scenarios"

// The scenarios the issue asks for.
var required = []string{"text", "reasoning", "tools", "tool-validation", "parallel-tools", "state", "activity", "error", "interrupt", "agui-1.0", "frontend-tool"}

func testCatalog(t *testing.T) *catalog {
	t.Helper()
	c, err := loadCatalog(scenarioDir)
	require.NoError(t, err)
	return c
}

func startServer(t *testing.T, cfg config) *httptest.Server {
	t.Helper()
	if cfg.catalog == nil {
		cfg.catalog = testCatalog(t)
	}
	if cfg.webDir == "" {
		cfg.webDir = t.TempDir()
	}
	cfg.logf = t.Logf
	ctx, cancel := context.WithCancel(context.Background())
	cfg.ctx = ctx
	s, err := newServer(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(s)
	t.Cleanup(func() {
		srv.Close()
		cancel() // runs still produced for a client that may come back
		s.wait()
	})
	return srv
}

type input map[string]any

func userInput(threadID, runID, text string, fp map[string]any) input {
	in := input{
		"threadId": threadID, "runId": runID, "state": map[string]any{},
		"messages":       []any{map[string]any{"id": "user-" + runID, "role": "user", "content": text}},
		"tools":          []any{},
		"context":        []any{},
		"forwardedProps": map[string]any{},
	}
	if fp != nil {
		in["forwardedProps"] = fp
	}
	return in
}

// postAgent POSTs a RunAgentInput and returns the response with its SSE
// body parsed back into events.
func postAgent(t *testing.T, srv *httptest.Server, in input) (*http.Response, []string) {
	t.Helper()
	body, err := json.Marshal(in)
	require.NoError(t, err)
	resp, err := http.Post(srv.URL+"/agent", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusOK {
		t.Logf("body: %s", raw)
		return resp, nil
	}
	events, errs := sse.ParseAll(raw)
	require.Empty(t, errs)
	out := make([]string, len(events))
	for i, e := range events {
		assert.Equal(t, "", e.Type, "frames carry no event: line")
		out[i] = e.Data
	}
	return resp, out
}

// recorded reads a scenario file as generic JSON values.
func recorded(t *testing.T, name string) []any {
	t.Helper()
	f, err := os.Open(filepath.Join(scenarioDir, name+".jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := bytes.TrimSpace(bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf")))
		if len(line) == 0 {
			continue
		}
		var v any
		require.NoError(t, json.Unmarshal(line, &v))
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// unsuffix undoes the per-run id rewriting in a generic JSON value.
func unsuffix(v any, suffix string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[strings.ReplaceAll(k, suffix, "")] = unsuffix(e, suffix)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unsuffix(e, suffix)
		}
		return out
	case string:
		return strings.ReplaceAll(x, suffix, "")
	}
	return v
}

// eachID calls f for every id-valued field of a generic event.
func eachID(v any, f func(key, id string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && idKeys[k] && s != "" {
				f(k, s)
			} else {
				eachID(e, f)
			}
		}
	case []any:
		for _, e := range x {
			eachID(e, f)
		}
	}
}

type folded struct {
	state map[string]any
	diags []reducer.Diagnostic
}

// fold runs events through the reducer, as the page does.
func fold(t *testing.T, r *reducer.Reducer, events []string) folded {
	t.Helper()
	var f folded
	for _, e := range events {
		ch := r.Apply([]byte(e))
		f.diags = append(f.diags, ch.Diagnostics...)
	}
	require.NoError(t, json.Unmarshal(r.Snapshot(), &f.state))
	return f
}

func TestScenariosPresent(t *testing.T) {
	c := testCatalog(t)
	for _, name := range required {
		assert.NotNil(t, c.byName[name], name)
	}
	assert.Subset(t, c.order, required, "required scenarios are listed")
	assert.NotContains(t, c.order, "interrupt-approved", "resume turns are not offered on their own")
	assert.NotNil(t, c.byName["interrupt-approved"])
	assert.NotNil(t, c.byName["interrupt-rejected"])
}

// TestAgentReplaysScenarios checks that the SSE framing of /agent parses back
// to the recorded events, with threadId/runId taken from the request and the
// ids suffixed with the run id, and that the reducer folds each run cleanly.
func TestAgentReplaysScenarios(t *testing.T) {
	c := testCatalog(t)
	srv := startServer(t, config{catalog: c})
	for _, name := range c.sortedNames() {
		t.Run(name, func(t *testing.T) {
			runID := "run-" + name
			resp, got := postAgent(t, srv, userInput("thread-test", runID, "hello", map[string]any{"scenario": name}))
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
			assert.Equal(t, name, resp.Header.Get("X-Agui-Scenario"))

			want := recorded(t, name)
			require.Len(t, got, len(want))
			for i, data := range got {
				assert.NotContains(t, data, "\n", "one data line per event")
				var ev map[string]any
				require.NoError(t, json.Unmarshal([]byte(data), &ev), data)
				rec := want[i].(map[string]any)

				// The server stamps events the recording left without a time.
				if _, ok := rec["timestamp"]; !ok {
					ts, ok := ev["timestamp"].(float64)
					assert.True(t, ok && ts > 1e12, "timestamp in ms: %s", data)
					delete(ev, "timestamp")
				}
				// threadId/runId are the request's.
				for key, val := range map[string]string{"threadId": "thread-test", "runId": runID} {
					if _, ok := rec[key]; ok {
						assert.Equal(t, val, ev[key], "%s of %s", key, data)
						ev[key] = rec[key]
					}
				}
				// Every id is unique to the run.
				eachID(ev, func(key, id string) {
					assert.True(t, strings.HasSuffix(id, "-"+runID), "%s %q has the run suffix", key, id)
				})
				assert.Equal(t, rec, unsuffix(ev, "-"+runID), "event %d", i)
			}

			if c.isResumeTurn(name) {
				return // folded in TestInterruptResume, after the turn it resumes
			}
			f := fold(t, reducer.New(reducer.Options{}), got)
			switch name {
			case "agui-1.0":
				// Its event of a later protocol version's type is ignored, with a warning.
				require.Len(t, f.diags, 1)
				assert.Equal(t, "unknown_type", f.diags[0].Code)
			case "tool-validation":
				// Its last call's arguments are cut off: the one warning.
				require.Len(t, f.diags, 1)
				assert.Equal(t, "bad_args", f.diags[0].Code)
			default:
				assert.Empty(t, f.diags, "the reducer folds the scenario without diagnostics")
			}
			wantStatus := "idle"
			if name == "error" {
				wantStatus = "error"
			}
			assert.Equal(t, wantStatus, f.state["status"])
			assert.Equal(t, runID, f.state["runId"])
			assert.Equal(t, name == "interrupt", len(f.state["interrupts"].([]any)) > 0, "pending interrupts")
		})
	}
}

func TestScenarioContents(t *testing.T) {
	c := testCatalog(t)
	srv := startServer(t, config{catalog: c})
	run := func(name string) map[string]any {
		_, got := postAgent(t, srv, userInput("th", "r1", "x", map[string]any{"scenario": name}))
		return fold(t, reducer.New(reducer.Options{}), got).state
	}
	types := func(name string) map[string]int {
		n := map[string]int{}
		for _, e := range recorded(t, name) {
			n[e.(map[string]any)["type"].(string)]++
		}
		return n
	}

	// Tools: streamed arguments, then the result.
	assert.Greater(t, types("tools")["TOOL_CALL_ARGS"], 10)
	st := run("tools")
	tc := st["toolCalls"].([]any)[0].(map[string]any)
	assert.Equal(t, "complete", tc["status"])
	assert.Equal(t, "Lisbon, Portugal", tc["args"].(map[string]any)["location"])
	assert.Contains(t, tc["result"], "Sunny")

	// Tool validation: the run's tools come in RUN_STARTED.input; the first
	// call breaks its schema, the second is valid, the third is cut off.
	st = run("tool-validation")
	calls := st["toolCalls"].([]any)
	require.Len(t, calls, 3)
	verdict := func(i int) (string, string, []any) {
		c := calls[i].(map[string]any)
		errs, _ := c["argsErrors"].([]any)
		return c["status"].(string), c["argsStatus"].(string), errs
	}
	status, args, errs := verdict(0)
	assert.Equal(t, "invalid", args)
	require.Len(t, errs, 2)
	assert.Equal(t, map[string]any{"path": "/unit", "keyword": "enum", "message": "must be one of celsius, fahrenheit"}, errs[0])
	assert.Equal(t, "/days", errs[1].(map[string]any)["path"])
	assert.Equal(t, "complete", status)
	status, args, errs = verdict(1)
	assert.Equal(t, []any{"complete", "valid"}, []any{status, args})
	assert.Empty(t, errs)
	status, args, errs = verdict(2)
	assert.Equal(t, []any{"error", "invalid"}, []any{status, args}, "a call cut off is never complete")
	require.Len(t, errs, 1)
	assert.Equal(t, "truncated", errs[0].(map[string]any)["keyword"])
	// safeArgs: the complete title, and the text as far as it came (a
	// string only its type constrains is valid at every prefix).
	assert.Equal(t, map[string]any{"title": "Oslo packing list", "text": "Rain on Thursday and highs of 6 °C: pack a waterproof jacket, warm layers and"},
		calls[2].(map[string]any)["safeArgs"])

	// Parallel: two calls under one assistant message, arguments interleaved.
	st = run("parallel-tools")
	require.Len(t, st["toolCalls"], 2)
	for _, x := range st["toolCalls"].([]any) {
		assert.Contains(t, x.(map[string]any), "result")
	}

	// State: snapshot, deltas, and citations on the answer.
	n := types("state")
	assert.Equal(t, 1, n["STATE_SNAPSHOT"])
	assert.Greater(t, n["STATE_DELTA"], 2)
	st = run("state")
	var cited map[string]any
	for _, m := range st["messages"].([]any) {
		if m.(map[string]any)["citations"] != nil {
			cited = m.(map[string]any)
		}
	}
	require.NotNil(t, cited, "a message has citations")
	assert.Equal(t, "msg_state_1-r1", cited["id"])
	assert.Len(t, cited["citations"], 4)

	// Reasoning: a duration from the server's timestamps.
	st = run("reasoning")
	var reasoned bool
	for _, m := range st["messages"].([]any) {
		if _, ok := m.(map[string]any)["reasoningDurationMs"]; ok {
			reasoned = true
		}
	}
	assert.True(t, reasoned, "reasoningDurationMs set")

	// Activity, error, steps, custom events.
	assert.Greater(t, types("activity")["ACTIVITY_DELTA"], 3)
	st = run("error")
	assert.Equal(t, "MODEL_OVERLOADED", st["error"].(map[string]any)["code"])
	custom := 0
	for _, name := range required {
		n := types(name)
		if name != "error" { // the error cuts the run short
			assert.Equal(t, n["STEP_STARTED"], n["STEP_FINISHED"], name)
		}
		custom += n["CUSTOM"]
	}
	assert.Greater(t, custom, 2)
}

func TestAutoPick(t *testing.T) {
	srv := startServer(t, config{})
	for text, want := range map[string]string{
		"Hello there":                                  "text",
		"Think about chickens and rabbits":             "reasoning",
		"What's the weather in Lisbon?":                "tools",
		"Check the weather in Oslo, with invalid args": "tool-validation",
		"Weather in Paris and time in Tokyo, parallel": "parallel-tools",
		"Research WebAssembly memory with sources":     "state",
		"Show me the shared STATE":                     "state",
		"Deploy the demo (activity)":                   "activity",
		"Trigger an error please":                      "error",
		"Delete report-draft.txt":                      "interrupt",
		"can you reason it through?":                   "reasoning",
		"use a tool":                                   "tools",
		"an interrupt":                                 "interrupt",
	} {
		resp, _ := postAgent(t, srv, userInput("t", "r", text, nil))
		assert.Equal(t, want, resp.Header.Get("X-Agui-Scenario"), text)
	}

	// InputContent[] parts count as text; the last user message decides.
	in := userInput("t", "r", "", nil)
	in["messages"] = []any{
		map[string]any{"id": "u0", "role": "user", "content": "the weather?"},
		map[string]any{"id": "a0", "role": "assistant", "content": "sunny"},
		map[string]any{"id": "u1", "role": "user", "content": []any{
			map[string]any{"type": "text", "text": "now trigger an error"},
			map[string]any{"type": "binary", "mimeType": "image/png", "url": "https://example.com/a.png"},
		}},
	}
	resp, _ := postAgent(t, srv, in)
	assert.Equal(t, "error", resp.Header.Get("X-Agui-Scenario"))

	// The -scenario flag overrides the keywords; the page's choice wins over both.
	srv = startServer(t, config{scenario: "tools"})
	resp, _ = postAgent(t, srv, userInput("t", "r", "think", nil))
	assert.Equal(t, "tools", resp.Header.Get("X-Agui-Scenario"))
	resp, _ = postAgent(t, srv, userInput("t", "r", "think", map[string]any{"scenario": "auto"}))
	assert.Equal(t, "tools", resp.Header.Get("X-Agui-Scenario"))
	resp, _ = postAgent(t, srv, userInput("t", "r", "think", map[string]any{"scenario": "state"}))
	assert.Equal(t, "state", resp.Header.Get("X-Agui-Scenario"))
}

func TestTwoTurnsDoNotCollide(t *testing.T) {
	srv := startServer(t, config{})
	r := reducer.New(reducer.Options{})
	_, first := postAgent(t, srv, userInput("thread-1", "run-1", "weather", nil))
	f := fold(t, r, first)
	require.Empty(t, f.diags)
	n := len(f.state["messages"].([]any))

	_, second := postAgent(t, srv, userInput("thread-1", "run-2", "weather", nil))
	f = fold(t, r, second)
	assert.Empty(t, f.diags)
	assert.Len(t, f.state["messages"], 2*n, "the second turn adds its own messages")
	assert.Len(t, f.state["toolCalls"], 2)
	assert.Equal(t, "thread-1", f.state["threadId"])
	assert.Equal(t, "run-2", f.state["runId"])
}

func TestMissingIDsAreFilledIn(t *testing.T) {
	srv := startServer(t, config{})
	_, got := postAgent(t, srv, input{"messages": []any{}})
	require.NotEmpty(t, got)
	var ev map[string]any
	require.NoError(t, json.Unmarshal([]byte(got[0]), &ev))
	assert.Equal(t, "RUN_STARTED", ev["type"])
	assert.True(t, strings.HasPrefix(ev["threadId"].(string), "thread-"))
	assert.True(t, strings.HasPrefix(ev["runId"].(string), "run-"))
}

// TestInterruptResume plays the interrupt turn, then resumes it the way the
// page does (runInput with resume), approved and rejected.
func TestInterruptResume(t *testing.T) {
	srv := startServer(t, config{})
	for _, approved := range []bool{true, false} {
		r := reducer.New(reducer.Options{})
		_, first := postAgent(t, srv, userInput("th", "run-1", "delete the draft", nil))
		f := fold(t, r, first)
		require.Empty(t, f.diags)
		ints := f.state["interrupts"].([]any)
		require.Len(t, ints, 1)
		in0 := ints[0].(map[string]any)
		assert.Equal(t, "int_delete_1-run-1", in0["id"])
		assert.Equal(t, "call_delete_1-run-1", in0["toolCallId"])

		in := userInput("th", "run-2", "delete the draft", nil)
		in["resume"] = []any{map[string]any{"interruptId": in0["id"], "status": "resolved", "payload": map[string]any{"approved": approved}}}
		resp, second := postAgent(t, srv, in)
		want := "interrupt-rejected"
		if approved {
			want = "interrupt-approved"
		}
		assert.Equal(t, want, resp.Header.Get("X-Agui-Scenario"))
		f = fold(t, r, second)
		assert.Empty(t, f.diags)
		assert.Empty(t, f.state["interrupts"])
		assert.Equal(t, "idle", f.state["status"])
		tc := f.state["toolCalls"].([]any)
		require.Len(t, tc, 1, "the resume answers the interrupted call")
		assert.Equal(t, "call_delete_1-run-1", tc[0].(map[string]any)["id"])
		if approved {
			assert.Contains(t, tc[0].(map[string]any)["result"], "deleted successfully")
		} else {
			assert.Contains(t, tc[0].(map[string]any)["result"], "Cancelled")
		}
	}

	// A cancelled resume is a rejection.
	in := userInput("th", "run-3", "x", nil)
	in["resume"] = []any{map[string]any{"interruptId": "int_delete_1-run-1", "status": "cancelled"}}
	resp, _ := postAgent(t, srv, in)
	assert.Equal(t, "interrupt-rejected", resp.Header.Get("X-Agui-Scenario"))
}

func TestBadRequests(t *testing.T) {
	srv := startServer(t, config{})
	resp, err := http.Post(srv.URL+"/agent", "application/json", strings.NewReader("{not json"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	resp, _ = postAgent(t, srv, userInput("t", "r", "hi", map[string]any{"scenario": "nope"}))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))

	resp, err = http.Get(srv.URL + "/agent")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
}

// TestCancelStopsStream: a client that goes away (the page's stop button
// aborts the fetch) ends the replay.
func TestCancelStopsStream(t *testing.T) {
	type result struct {
		sent int
		err  error
	}
	done := make(chan result, 1)
	c := testCatalog(t)
	srv := startServer(t, config{catalog: c, speed: 1, done: func(_ string, sent int, err error) { done <- result{sent, err} }})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body, _ := json.Marshal(userInput("t", "r", "x", map[string]any{"scenario": "reasoning"}))
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/agent", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, "id: "), line)
	line, err = br.ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, "data: "), line)
	cancel()

	select {
	case res := <-done:
		assert.Error(t, res.err)
		assert.Less(t, res.sent, len(c.byName["reasoning"].events), "stopped early")
	case <-time.After(3 * time.Second):
		t.Fatal("the replay did not stop after the client went away")
	}
}

func TestPacing(t *testing.T) {
	srv := startServer(t, config{speed: 0.2})
	start := time.Now()
	_, got := postAgent(t, srv, userInput("t", "r", "x", map[string]any{"scenario": "tools"}))
	require.NotEmpty(t, got)
	// At speed 1 the tools run takes well over a second (tokens 8–20 ms,
	// 400 ms before the result); at 0.2 it takes a fifth of that.
	el := time.Since(start)
	assert.Greater(t, el, 300*time.Millisecond)
	assert.Less(t, el, 3*time.Second)
}

func TestScenarioList(t *testing.T) {
	srv := startServer(t, config{})
	resp, err := http.Get(srv.URL + "/scenarios")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var list struct {
		Default   string
		Scenarios []struct {
			Name, Description string
			Events            int
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	assert.Equal(t, "auto", list.Default)
	var names []string
	for _, s := range list.Scenarios {
		names = append(names, s.Name)
		assert.NotEmpty(t, s.Description, s.Name)
		assert.Positive(t, s.Events)
	}
	assert.ElementsMatch(t, required, names)
}

func TestUpstreamProxy(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "/agui/run", r.URL.Path)
		b, _ := io.ReadAll(r.Body)
		assert.Contains(t, string(b), `"threadId":"t"`)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
		w.(http.Flusher).Flush()
		w.Write([]byte("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL + "/agui/run")
	srv := startServer(t, config{upstream: u})
	resp, got := postAgent(t, srv, userInput("t", "r", "hi", nil))
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assert.Len(t, got, 2)
}

func TestLoadCorpusFile(t *testing.T) {
	// -scenario may name any recording, such as the .NET corpus (BOM, rawEvent).
	path := "../../testdata/corpus/dotnet/ParallelToolCalls--WithParallelToolCalls_InvokesBothToolsAndStreamsResults-turn1.jsonl"
	sc, err := loadScenario("parallel", path)
	require.NoError(t, err)
	c := testCatalog(t)
	c.add(sc)
	srv := startServer(t, config{catalog: c, scenario: "parallel"})
	_, got := postAgent(t, srv, userInput("t", "r", "x", nil))
	require.NotEmpty(t, got)
	assert.NotContains(t, got[1], "rawEvent")
	f := fold(t, reducer.New(reducer.Options{}), got)
	assert.Empty(t, f.diags)
	assert.Len(t, f.state["toolCalls"], 2)
}

func TestStatic(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("demo/index.html", "<!doctype html><title>demo</title>")
	write("demo/app.js", "export {}")
	write("dist/agui.wasm", "\x00asm-raw")
	write("dist/agui.wasm.br", "brotli-bytes")
	write("dist/agui.wasm.gz", "gzip-bytes")
	write("dist/wasm_exec.js", "// exec")
	write(".secret", "no")
	write("node_modules/pkg/index.js", "no")
	srv := startServer(t, config{webDir: dir})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	get := func(path, ae string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", ae) // set: the transport then leaves the body alone
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, _ := get("/", "identity")
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.Equal(t, "/demo/", resp.Header.Get("Location"))
	resp, _ = get("/?endpoint=http://x/&scenario=tools", "identity")
	assert.Equal(t, "/demo/?endpoint=http://x/&scenario=tools", resp.Header.Get("Location"), "the page's settings survive")
	resp, _ = get("/demo", "identity")
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)

	resp, body := get("/demo/", "identity")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, "<title>demo</title>")
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "'wasm-unsafe-eval'")
	resp, _ = get("/demo/app.js", "identity")
	assert.Equal(t, "text/javascript; charset=utf-8", resp.Header.Get("Content-Type"))

	for _, c := range []struct{ ae, enc, body string }{
		{"gzip, deflate, br", "br", "brotli-bytes"},
		{"br", "br", "brotli-bytes"},
		{"gzip", "gzip", "gzip-bytes"},
		{"br;q=0, gzip;q=0.8", "gzip", "gzip-bytes"},
		{"*", "br", "brotli-bytes"},
		{"identity", "", "\x00asm-raw"},
		{"", "", "\x00asm-raw"},
	} {
		resp, body := get("/dist/agui.wasm", c.ae)
		assert.Equal(t, http.StatusOK, resp.StatusCode, c.ae)
		assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"), c.ae)
		assert.Equal(t, c.enc, resp.Header.Get("Content-Encoding"), c.ae)
		assert.Equal(t, c.body, body, c.ae)
		assert.Contains(t, resp.Header.Get("Vary"), "Accept-Encoding")
	}
	// No precompressed copy: the file as is.
	resp, body = get("/dist/wasm_exec.js", "br, gzip")
	assert.Equal(t, "", resp.Header.Get("Content-Encoding"))
	assert.Equal(t, "// exec", body)

	for _, p := range []string{"/.secret", "/node_modules/pkg/index.js", "/dist/", "/missing.js"} {
		resp, _ := get(p, "identity")
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, p)
	}
}

func TestStaticEscapes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "web"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("no"), 0o644))
	h := staticHandler(filepath.Join(dir, "web"), pagePolicy)
	for _, p := range []string{"/../secret.txt", "/web/../../secret.txt", "/%2e%2e/secret.txt"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = p
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusNotFound, rec.Code, p)
		assert.NotContains(t, rec.Body.String(), "no\n", p)
	}
}

// TestRealPage serves the repository's web/ when it is there: the page and,
// once built (make wasm), the module.
func TestRealPage(t *testing.T) {
	web := "../../web"
	if _, err := os.Stat(filepath.Join(web, "demo", "index.html")); err != nil {
		t.Skip("no web/demo")
	}
	srv := startServer(t, config{webDir: web})
	for _, p := range []string{"/demo/", "/demo/app.js", "/demo/style.css"} {
		resp, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, p)
	}
	if _, err := os.Stat(filepath.Join(web, "dist", "agui.wasm")); err != nil {
		t.Log("web/dist/agui.wasm not built; skipping the module")
		return
	}
	req, _ := http.NewRequest("GET", srv.URL+"/dist/agui.wasm", nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	if _, err := os.Stat(filepath.Join(web, "dist", "agui.wasm.br")); err == nil {
		assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	}
}

func TestHelpers(t *testing.T) {
	ids := map[string]string{"m/1": "m/1-r", "a": "a-r"}
	assert.Equal(t, "/citations/m~11-r/0", rewritePointer("/citations/m~11/0", ids))
	assert.Equal(t, "/x/a-r", rewritePointer("/x/a", ids))
	assert.Equal(t, "/x/b", rewritePointer("/x/b", ids))

	assert.True(t, accepts("gzip, br", "br"))
	assert.False(t, accepts("gzip", "br"))
	assert.False(t, accepts("br;q=0", "br"))
	assert.True(t, accepts("BR;q=0.5", "br"))
	assert.False(t, accepts("*, br;q=0", "br"))

	v, err := parseValue([]byte(`{"type":"X","b":[1,2.50,true,null,"\u2028<&>\"\n"],"a":{}}`))
	require.NoError(t, err)
	assert.Equal(t, `{"type":"X","b":[1,2.50,true,null,"\u2028<&>\"\n"],"a":{}}`, string(v.appendJSON(nil)))
	_, err = parseValue([]byte(`{} {}`))
	assert.Error(t, err)

	assert.Equal(t, "http://localhost:80/", pageURL(&fakeAddr{"[::]:80"}))
	assert.Equal(t, "http://127.0.0.1:9/", pageURL(&fakeAddr{"127.0.0.1:9"}))
}

type fakeAddr struct{ s string }

func (a *fakeAddr) Network() string { return "tcp" }
func (a *fakeAddr) String() string  { return a.s }
