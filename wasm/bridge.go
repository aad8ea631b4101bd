// Command wasm is the WebAssembly bridge between JavaScript and package
// reducer (GOOS=js GOARCH=wasm; built by cmd/wasm-build into
// web/dist/agui.wasm, used through web/agui.js). Each reducer has a
// translator of package dialect in front of it, composed by a
// dialect.Pipeline: an event goes bytes → SSE frames → translator (dialect
// → canonical AG-UI) → reducer → change record.
//
// JS talks to it through //go:wasmexport functions (main_js.go), not
// js.FuncOf: a wasmexport call costs nanoseconds, a js.FuncOf call about
// 11 µs. Arguments travel in a Go-owned input buffer that JS writes with
// TextEncoder.encodeInto (inPtr, inCap, growIn); results are JSON text that
// Go writes to an output buffer (outPtr) and JS decodes. Every call returns
// an int32 n:
//
//   - n >= 0: the first n bytes of the output buffer are the result (for
//     create: n is the new handle);
//   - n < 0: the call failed; the first -n bytes are a change record whose
//     diagnostics say why. After a recovered panic it also carries a root
//     "replace" of the whole state, so a JS mirror resynchronises.
//
// The output buffer is valid until the next call.
//
// This file holds the logic and has no build tags, so it is also tested
// natively; main_js.go holds the exports.
package main

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// instance is one reducer (one chat or thread), the translator in front of
// it, the pipeline composing them with the SSE body being fed, and its
// reusable buffers.
type instance struct {
	r      *reducer.Reducer
	t      *dialect.Translator
	p      *dialect.Pipeline // frames → translator → reducer
	change reducer.Change    // reused by every apply
	depth  int               // the reducer's MaxDepth option (0: its default)
}

var (
	in         = make([]byte, 64<<10)    // JS writes arguments here
	out        = make([]byte, 0, 64<<10) // results for JS
	instances  = map[int32]*instance{}
	lastHandle int32
)

func ok() int32 { return int32(len(out)) }

// failWith writes a change record holding one error diagnostic.
func failWith(code, msg string) int32 {
	c := reducer.Change{Diagnostics: []reducer.Diagnostic{{Code: code, Level: reducer.LevelError, Message: msg}}}
	out = c.AppendJSON(out[:0])
	return -int32(len(out))
}

func lookup(h int32) *instance {
	if inst := instances[h]; inst != nil {
		return inst
	}
	panic(badHandle(h))
}

type badHandle int32

// recoverCall turns a panic into a diagnostic; deferred by every export.
// When the panic happened inside a reducer, the state it left is what the
// reducer holds now, so the record carries a root replace with it. A call
// that returns normally ticks the pacer (pace.go).
func recoverCall(h int32, n *int32) {
	p := recover()
	if p == nil {
		pace.tick()
		return
	}
	code, msg := "panic", "panic: "
	switch v := p.(type) {
	case badHandle:
		code, msg = "bad_handle", "no reducer with handle "+strconv.Itoa(int(v))+" (disposed?)"
	case error:
		msg += v.Error()
	case string:
		msg += v
	default:
		msg += "non-string value"
	}
	if code == "panic" {
		// print (standard error) and runtime.Stack, not os.Stderr and
		// runtime/debug: those would bring os, syscall and syscall/js
		// into the module (see main_js.go).
		stack := make([]byte, 16<<10)
		stack = stack[:runtime.Stack(stack, false)]
		print("agui wasm: ", msg, "\n", string(stack), "\n")
	}
	c := reducer.Change{Diagnostics: []reducer.Diagnostic{{Code: code, Level: reducer.LevelError, Message: msg}}}
	if inst := instances[h]; inst != nil && inst.r != nil && code == "panic" {
		inst.p.Drop() // the SSE parser's position is unknown now
		func() {
			defer func() { _ = recover() }()
			c.Ops = []reducer.Op{{Kind: reducer.OpReplace, Path: "", Value: inst.r.Snapshot()}}
		}()
	}
	out = c.AppendJSON(out[:0])
	*n = -int32(len(out))
}

// clock is the reducers' Options.Clock, in milliseconds: the bridge may
// read the system clock, the reducer may not. The reducer only subtracts
// two readings (reasoning durations), so a monotonic clock is what it
// wants. Tests replace it.
var clock = monotonicMs

// newID returns a random (version 4) UUID, as AG-UI clients use for run and
// message ids. math/rand/v2's generator (ChaCha8, seeded by the runtime from
// crypto.getRandomValues) gives unique ids; crypto/rand would add 42 KB of
// brotli to the module for secrecy that ids do not need.
//
// The bytes and hex digits are written by hand: encoding/hex imports fmt,
// which would bring os and syscall/js into the module.
func newID(string) string {
	var b [16]byte
	for i, x := range [2]uint64{rand.Uint64(), rand.Uint64()} {
		for j := range 8 {
			b[8*i+j] = byte(x >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const digits = "0123456789abcdef"
	var s [36]byte
	n := 0
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s[n] = '-'
			n++
		}
		s[n], s[n+1] = digits[x>>4], digits[x&0x0f]
		n += 2
	}
	return string(s[:])
}

// create makes a reducer from options JSON ({strict, dialect, threadId,
// maxEventBytes, maxDepth, maxFieldBytes, maxStateBytes, deterministicIds,
// tools}; empty means defaults) and returns its handle.
func create(opts []byte) int32 {
	o := reducer.Options{Clock: func() float64 { return clock() }, NewID: newID}
	var dialectName string
	if len(opts) > 0 {
		// Deep enough for the tools' schemas.
		v, err := jsontree.Parse(opts, jsontree.ParseOptions{MaxDepth: 256})
		obj, _ := v.(*jsontree.Object)
		if err != nil || obj == nil {
			return failWith("bad_options", "reducer options must be a JSON object")
		}
		for i := range obj.Len() {
			k, val := obj.KeyAt(i), obj.ValueAt(i)
			var bad bool
			switch k {
			case "strict":
				o.Strict, bad = val == true, val != true && val != false && val != nil
			case "deterministicIds":
				if val == true {
					o.NewID = nil
				}
			case "maxEventBytes":
				o.MaxEventBytes, bad = intOption(val)
			case "maxDepth":
				o.MaxDepth, bad = intOption(val)
			case "maxFieldBytes":
				o.MaxFieldBytes, bad = intOption(val)
			case "threadId":
				id, isStr := val.(string)
				bad = !isStr && val != nil
				o.ThreadID = id
			case "maxStateBytes":
				o.MaxStateBytes, bad = intOption(val)
			case "tools":
				_, isArr := val.(*jsontree.Array)
				bad = !isArr && val != nil
				o.Tools = val
			case "dialect":
				name, isStr := val.(string)
				bad = !isStr || !slices.Contains(dialect.Names(), name) && name != ""
				dialectName = name
			}
			if bad {
				return failWith("bad_options", "reducer option "+k+" has the wrong type")
			}
		}
	}
	lastHandle++
	inst := &instance{r: reducer.New(o), depth: o.MaxDepth, t: dialect.New(dialect.Options{
		Dialect: dialectName, NewID: o.NewID, MaxEventBytes: o.MaxEventBytes, MaxDepth: o.MaxDepth, MaxFieldBytes: o.MaxFieldBytes,
	})}
	inst.p = dialect.NewPipeline(inst.r, inst.t)
	instances[lastHandle] = inst
	return lastHandle
}

func intOption(v jsontree.Value) (n int, bad bool) {
	if v == nil {
		return 0, false
	}
	num, isNum := v.(jsontree.Number)
	n, err := strconv.Atoi(string(num))
	return n, !isNum || err != nil
}

func dispose(h int32) int32 {
	delete(instances, h)
	if tokenInst.h == h {
		tokenInst.inst = nil
	}
	return 0
}

// apply folds one event: name is the SSE event name ("" for none), data
// its JSON text. The output is its change record.
func apply(h int32, name, data []byte) int32 {
	inst := lookup(h)
	inst.p.Apply(&inst.change, string(name), data)
	out = inst.change.AppendJSON(out[:0])
	return ok()
}

// Compact records. applyCompact returns a change record that is a single
// string append to a message's content or reasoning (nearly every event of
// a stream: the streamed tokens) as
//
//	[0x01, field, index as uint32 little-endian, the appended text as UTF-8]
//
// with field 1 for /messages/<index>/content and 2 for
// /messages/<index>/reasoning, so that JS reads the text without
// TextDecoder and JSON.parse. A record made only of appends to strings
// of messages and tool calls (a tool-argument token's: the argument text
// and the string of the parsed arguments it extends) is
//
//	[0x03, count, then count appends]
//
// each append being
//
//	[target, index as uint32 little-endian, (target 4: the pointer's length
//	 as uint16 little-endian, the pointer), the text's length as uint32
//	 little-endian, the text as UTF-8]
//
// with target 1 for /messages/<index>/content, 2 for
// /messages/<index>/reasoning, 3 for /toolCalls/<index>/argsText and 4 for
// /toolCalls/<index>/args<pointer> (the pointer is the JSON Pointer below
// args, as the record's path has it). A text length of 0xFFFFFFFF (from
// applyToken) stands for the token's delta, which JS has already. Anything
// else comes back as the JSON record, as from apply (a JSON record starts
// with '{', never with a byte below 0x20).
const (
	compactAppend    = 1
	compactContent   = 1
	compactReasoning = 2
	compactAppends   = 3
	compactArgsText  = 3
	compactArgs      = 4
	compactIsDelta   = 0xFFFFFFFF
)

func applyCompact(h int32, name, data []byte) int32 {
	inst := lookup(h)
	inst.p.Apply(&inst.change, string(name), data)
	return compactRecord(&inst.change, nil)
}

// compactRecord writes c in a compact form when it has one (delta: the
// token's delta from applyToken, else nil), else as JSON.
func compactRecord(c *reducer.Change, delta []byte) int32 {
	if len(c.Ops) == 0 || len(c.Events) != 0 || len(c.Diagnostics) != 0 {
		out = c.AppendJSON(out[:0])
		return ok()
	}
	if len(c.Ops) == 1 && c.Ops[0].Kind == reducer.OpAppend && !hasLoneSurrogate(c.Ops[0].Text) {
		if field, index, isMsg := messageField(c.Ops[0].Path); isMsg {
			out = append(out[:0], compactAppend, field, byte(index), byte(index>>8), byte(index>>16), byte(index>>24))
			out = append(out, c.Ops[0].Text...)
			return ok()
		}
	}
	if appendsRecord(c, delta) {
		return ok()
	}
	out = c.AppendJSON(out[:0])
	return ok()
}

// appendsRecord writes c in the compact appends form (0x03) when every op
// is an append to a string of a message or a tool call, and reports
// whether it did.
func appendsRecord(c *reducer.Change, delta []byte) bool {
	if len(c.Ops) > 255 {
		return false
	}
	out = append(out[:0], compactAppends, byte(len(c.Ops)))
	for i := range c.Ops {
		op := &c.Ops[i]
		// A text equal to delta (valid UTF-8, applyToken's contract)
		// holds no lone surrogate: not scanned for one.
		isDelta := delta != nil && op.Text == string(delta)
		if op.Kind != reducer.OpAppend || !isDelta && hasLoneSurrogate(op.Text) {
			return false
		}
		target, index, ptr, found := appendTargetOf(op.Path)
		if !found {
			return false
		}
		out = append(out, target, byte(index), byte(index>>8), byte(index>>16), byte(index>>24))
		if target == compactArgs {
			out = append(out, byte(len(ptr)), byte(len(ptr)>>8))
			out = append(out, ptr...)
		}
		n := uint32(len(op.Text))
		if isDelta {
			n = compactIsDelta
		}
		out = append(out, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		if n != compactIsDelta {
			out = append(out, op.Text...)
		}
	}
	return true
}

// appendTargets remembers the targets of the appends record's ops by
// their path's identity: the reducer keeps the paths a stream appends to
// (a call's argsText, the pointer of the argument string being read), so
// the tokens of a stream hand over the same strings, and comparing their
// address and length costs less than parsing them (in wasm, a loop of
// calls and bounds checks per byte). A string's bytes never change: the
// same address and length are the same path.
//
// A few: tool calls stream their arguments interleaved (each token to the
// next call), two paths each (three when it is validated).
var appendTargets struct {
	known [16]knownTarget
	next  int // the entry the next path parsed takes
}

type knownTarget struct {
	path   string
	target byte
	index  uint32
	ptr    string
	found  bool
	_      [0]func() // not comparable: no equality function in the module
}

// appendTargetOf is appendTarget, remembered.
func appendTargetOf(path string) (target byte, index uint32, ptr string, found bool) {
	t := &appendTargets
	for i := range t.known {
		if e := &t.known[i]; len(path) == len(e.path) && unsafe.StringData(path) == unsafe.StringData(e.path) && len(path) != 0 {
			return e.target, e.index, e.ptr, e.found
		}
	}
	target, index, ptr, found = appendTarget(path)
	// A path the form cannot carry is remembered too: a validated call's
	// token also appends to its safe arguments, every time.
	t.known[t.next] = knownTarget{path: path, target: target, index: index, ptr: ptr, found: found}
	t.next = (t.next + 1) % len(t.known)
	return target, index, ptr, found
}

// appendTarget parses the path of an append the compact appends form
// carries: a message's content or reasoning, a tool call's argsText, or a
// string inside its args (ptr: the pointer below args, shorter than 64 KB).
func appendTarget(path string) (target byte, index uint32, ptr string, found bool) {
	if field, i, isMsg := messageField(path); isMsg {
		return field, i, "", true
	}
	const prefix = "/toolCalls/"
	index, rest, found := pathIndex(path, prefix)
	switch {
	case !found:
	case rest == "/argsText":
		return compactArgsText, index, "", true
	case len(rest) >= len("/args/") && rest[:len("/args/")] == "/args/" && len(rest) < 1<<16:
		return compactArgs, index, rest[len("/args"):], true
	}
	return 0, 0, "", false
}

// Tokens. applyToken folds a streamed token given by its fields (the
// drop-in agent holds the event decoded: no JSON is written for it, nor
// scanned): kind 1 TEXT_MESSAGE_CONTENT, 2 REASONING_MESSAGE_CONTENT, 3
// TOOL_CALL_ARGS; id and delta as valid UTF-8 (TextEncoder's output: not
// checked again). When the record is the append of delta itself to a
// message's content or reasoning (nearly always), the output is
//
//	[0x02, field, index as uint32 little-endian]
//
// (JS has the text already); else what applyCompact outputs, with the
// appends form's texts equal to delta left out (a tool-argument token's).
const compactAppendDelta = 2

var tokenTypes = [...]reducer.EventType{reducer.TextMessageContent, reducer.ReasoningMessageContent, reducer.ToolCallArgs}

// tokenAppendFields are the compact forms' fields of the token kinds' appends.
var tokenAppendFields = [...]byte{compactContent, compactReasoning, 0}

// tokenInst is the instance applyToken found last: the tokens of a stream
// come one after another to one handle, and a map lookup costs more in
// wasm than the comparison. dispose forgets it.
var tokenInst struct {
	h    int32
	inst *instance
}

func applyToken(h, kind int32, id, delta []byte) int32 {
	inst := tokenInst.inst
	if inst == nil || tokenInst.h != h {
		inst = lookup(h)
		tokenInst.h, tokenInst.inst = h, inst
	}
	c := &inst.change
	// Another kind is a bridge bug: the index panics, recoverCall reports
	// it. JS wrote id and delta with TextEncoder.encodeInto: valid UTF-8.
	if index, appended := inst.p.FoldToken(c, tokenTypes[kind-1], id, delta); appended {
		out = append(out[:0], compactAppendDelta, tokenAppendFields[kind-1], byte(index), byte(index>>8), byte(index>>16), byte(index>>24))
		return ok()
	}
	if len(c.Ops) == 1 && len(c.Events) == 0 && len(c.Diagnostics) == 0 && c.Ops[0].Kind == reducer.OpAppend && c.Ops[0].Text == string(delta) {
		if field, index, isMsg := messageField(c.Ops[0].Path); isMsg {
			out = append(out[:0], compactAppendDelta, field, byte(index), byte(index>>8), byte(index>>16), byte(index>>24))
			return ok()
		}
	}
	return compactRecord(c, delta)
}

// hasLoneSurrogate reports whether text holds a lone UTF-16 surrogate
// (WTF-8): UTF-8 cannot carry it to JS, the JSON record's \udxxx can.
func hasLoneSurrogate(text string) bool {
	for i := strings.IndexByte(text, 0xED); i >= 0 && i+1 < len(text); {
		if text[i+1]&0xE0 == 0xA0 {
			return true
		}
		j := strings.IndexByte(text[i+1:], 0xED)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// messageField parses "/messages/<index>/content" or "/reasoning".
func messageField(path string) (field byte, index uint32, ok bool) {
	index, rest, ok := pathIndex(path, "/messages/")
	if !ok {
		return 0, 0, false
	}
	switch rest {
	case "/content":
		return compactContent, index, true
	case "/reasoning":
		return compactReasoning, index, true
	}
	return 0, 0, false
}

// pathIndex parses prefix, then an array index (canonical: no leading
// zero, at most 9 digits), at the start of path; rest is what follows.
func pathIndex(path, prefix string) (index uint32, rest string, ok bool) {
	if len(path) <= len(prefix) || path[:len(prefix)] != prefix {
		return 0, "", false
	}
	i := len(prefix)
	start := i
	for i < len(path) && path[i] >= '0' && path[i] <= '9' && i-start < 9 {
		index = index*10 + uint32(path[i]-'0')
		i++
	}
	if i == start || (path[start] == '0' && i-start > 1) {
		return 0, "", false
	}
	return index, path[i:], true
}

// feed parses a piece of an SSE body, split anywhere, and folds every event
// it completes. The output is a JSON array of the non-empty change records.
func feed(h int32, chunk []byte) int32 {
	inst := lookup(h)
	out = append(out[:0], '[')
	inst.p.Feed(chunk, func(c *reducer.Change) {
		if c.Empty() {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = c.AppendJSON(out)
	})
	out = append(out, ']')
	return ok()
}

// setLastEventID records data (the text) as the SSE id of the last frame
// folded, for a host that applies parsed frames one by one (feed records
// the ids of the frames it parses itself).
func setLastEventID(h int32, data []byte) int32 {
	return change(lookup(h).r.SetLastEventID(string(data)))
}

// checkEventID outputs an empty change record when setLastEventID would
// take data as an id, else one with the diagnostic it would refuse it with.
// A host that applies a frame and then records its id checks the id first:
// a frame whose id is refused is refused whole, and changes nothing.
func checkEventID(h int32, data []byte) int32 {
	var c reducer.Change
	if err := lookup(h).r.CheckEventID(string(data)); err != nil {
		c.Diagnostics = append(c.Diagnostics, reducer.Diagnostic{Code: err.Code, Level: reducer.LevelError, Message: err.Message})
	}
	return change(&c)
}

// lastEventID outputs the state's lastEventId as text: what a
// reconnecting transport sends, read without a snapshot.
func lastEventID(h int32) int32 {
	out = append(out[:0], lookup(h).r.State().LastEventID...)
	return ok()
}

// endStream ends the SSE body being fed: the next feed starts a new one.
func endStream(h int32) int32 {
	lookup(h).p.Close()
	return 0
}

// running reports 1 while the state's status is "running".
func running(h int32) int32 {
	if lookup(h).r.State().Status == reducer.StatusRunning {
		return 1
	}
	return 0
}

// stop marks a running run as finished without an error (the user
// aborted it): a local RUN_FINISHED for the current run. It does nothing
// when no run is going on.
func stop(h int32) int32 {
	inst := lookup(h)
	inst.r.EndReplay()
	if st := inst.r.State(); st.Status == reducer.StatusRunning {
		ev := append([]byte(nil), `{"type":"RUN_FINISHED","threadId":`...)
		ev = jsontree.AppendString(ev, st.ThreadID)
		ev = append(ev, `,"runId":`...)
		ev = jsontree.AppendString(ev, st.RunID)
		ev = append(ev, '}')
		inst.r.ApplyInto(&inst.change, ev) // local: not in the agent's dialect
		inst.t.Observe(ev)
		return change(&inst.change)
	}
	out = append(out[:0], "{}"...)
	return ok()
}

// args parses the JSON array of a local action's arguments.
func args(data []byte) []jsontree.Value {
	v, err := jsontree.Parse(data, jsontree.ParseOptions{})
	if a, isArr := v.(*jsontree.Array); err == nil && isArr {
		return a.Elems
	}
	return nil
}

func str(a []jsontree.Value, i int) string {
	if i < len(a) {
		s, _ := a[i].(string)
		return s
	}
	return ""
}

func change(c *reducer.Change) int32 {
	out = c.AppendJSON(out[:0])
	return ok()
}

// addUserMessage: [content, id?], content a string or InputContent[].
func addUserMessage(h int32, data []byte) int32 {
	inst, a := lookup(h), args(data)
	var content jsontree.Value
	if len(a) > 0 {
		content = a[0]
	}
	return change(inst.r.AddUserMessage(content, str(a, 1)))
}

// addToolResult: [toolCallId, content].
func addToolResult(h int32, data []byte) int32 {
	inst, a := lookup(h), args(data)
	return change(inst.r.AddToolResult(str(a, 0), str(a, 1)))
}

// fail: [message, code?].
func fail(h int32, data []byte) int32 {
	inst, a := lookup(h), args(data)
	c := inst.r.Fail(str(a, 0), str(a, 1))
	inst.t.EndRun()
	return change(c)
}

// valueArg parses the JSON array [value] of setState and setMessages with
// the reducer's depth limit (plus one level for the array), as events are.
func (inst *instance) valueArg(data []byte) []jsontree.Value {
	depth := inst.depth
	if depth <= 0 {
		depth = reducer.DefaultMaxDepth
	}
	v, err := jsontree.Parse(data, jsontree.ParseOptions{MaxDepth: depth + 1})
	if a, isArr := v.(*jsontree.Array); err == nil && isArr {
		return a.Elems
	}
	return nil
}

// setState: [state], any JSON value.
func setState(h int32, data []byte) int32 {
	inst := lookup(h)
	a := inst.valueArg(data)
	if len(a) != 1 {
		return failWith("bad_argument", "setState: the state must be one JSON value within the depth limit")
	}
	return change(inst.r.SetState(a[0]))
}

// setMessages: [messages], a Message[].
func setMessages(h int32, data []byte) int32 {
	inst := lookup(h)
	a := inst.valueArg(data)
	if len(a) != 1 {
		return failWith("bad_argument", "setMessages: the messages must be one JSON array within the depth limit")
	}
	c := inst.r.SetMessages(a[0])
	if len(c.Diagnostics) == 0 { // the translator learns the ids now in use
		ev := append([]byte(`{"type":"MESSAGES_SNAPSHOT","messages":`), jsontree.AppendJSON(nil, a[0])...)
		inst.t.Observe(append(ev, '}'))
	}
	return change(c)
}

func reset(h int32) int32 {
	inst := lookup(h)
	inst.p.Drop()
	inst.t.Reset()
	return change(inst.r.Reset())
}

// snapshot outputs the whole state JSON.
func snapshot(h int32) int32 {
	out = append(out[:0], lookup(h).r.Snapshot()...)
	return ok()
}

// restore replaces the state by a snapshot (its JSON text). A bad
// snapshot yields a change record with only a diagnostic.
func restore(h int32, data []byte) int32 {
	inst := lookup(h)
	c, err := inst.r.Restore(data)
	if err != nil {
		c = &reducer.Change{}
		code, msg := "bad_snapshot", err.Error()
		if e, isErr := err.(*reducer.Error); isErr {
			code, msg = e.Code, e.Message
		}
		c.Diagnostics = append(c.Diagnostics, reducer.Diagnostic{Code: code, Level: reducer.LevelError, Message: msg})
	} else {
		// From the restored state, not the text: reading 100,000
		// messages again would cost as much as the restore.
		inst.t.ResumeConversation(dialect.ConversationOf(inst.r.State()))
	}
	inst.p.Drop()
	return change(c)
}

// runInput outputs the RunAgentInput JSON for the next request; data is
// {threadId?, runId?, state?, messages?, tools?, context?, forwardedProps?,
// resume?} or empty.
func runInput(h int32, data []byte) int32 {
	inst := lookup(h)
	var o reducer.RunInputOptions
	if len(data) > 0 {
		v, err := jsontree.Parse(data, jsontree.ParseOptions{})
		obj, _ := v.(*jsontree.Object)
		if err != nil || obj == nil {
			return failWith("bad_argument", "runInput: options must be a JSON object")
		}
		if id, has := obj.Get("threadId"); has {
			o.ThreadID, _ = id.(string)
		}
		if id, has := obj.Get("runId"); has {
			o.RunID, _ = id.(string)
		}
		o.State, _ = obj.Get("state")
		o.Messages, _ = obj.Get("messages")
		o.Tools, _ = obj.Get("tools")
		o.Context, _ = obj.Get("context")
		o.ForwardedProps, _ = obj.Get("forwardedProps")
		o.Resume, _ = obj.Get("resume")
	}
	out = append(out[:0], inst.r.RunInput(o)...)
	return ok()
}

// setTools makes the tools in data (an AG-UI Tool[] as JSON) known for
// validating tool-call arguments (reducer.SetTools) and outputs an empty
// change record: the state changes only as calls stream.
func setTools(h int32, data []byte) int32 {
	inst := lookup(h)
	v, err := jsontree.Parse(data, jsontree.ParseOptions{})
	if _, isArr := v.(*jsontree.Array); err != nil || !isArr {
		return failWith("bad_argument", "setTools: tools must be a JSON array")
	}
	inst.r.SetTools(v)
	return change(&reducer.Change{})
}

// messages outputs the conversation in the official AG-UI Message[] shape.
func messages(h int32) int32 {
	out = lookup(h).r.AppendMessages(out[:0])
	return ok()
}
