package reducer

import (
	"slices"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/reducer/partialjson"
	"github.com/agui-reducer/agui/reducer/toolschema"
)

// The validation of a tool call's arguments (docs/tool-validation.md):
// ToolCall.ArgsStatus and its JSON key argsStatus take these values.
const (
	// ArgsStreaming: the arguments are arriving and no error is known.
	ArgsStreaming = "streaming"
	// ArgsValid: the complete arguments match the tool's schema.
	ArgsValid = "valid"
	// ArgsInvalid: an error no continuation can repair was found while
	// they streamed, the complete arguments break the schema, or they were
	// cut off (keyword "truncated").
	ArgsInvalid = "invalid"
	// ArgsUnchecked: the tool's schema is unknown; the arguments are not
	// validated (but truncation is still caught).
	ArgsUnchecked = "unchecked"
)

// maxArgsErrors bounds the errors kept on one call.
const maxArgsErrors = 20

// toolSchema is a known tool's compiled parameters schema.
type toolSchema struct {
	schema *toolschema.Schema
	told   bool      // its unchecked keywords were reported
	_      [0]func() // not comparable: no equality function in the module
}

// argsCheck follows one call's validation while its arguments stream.
type argsCheck struct {
	stream *toolschema.Stream // nil: no schema
	depth  int                // open strings and containers
	// The top-level member being read: its key and the errors found
	// before it started.
	key    string
	before int
	root   bool // the root value is an object
	free   bool // the member is a string that streams into the safe arguments
	// A free member's name (the key unescaped) and the pointer of its
	// safe argument (base: the call's path it was built on), built once
	// for all its deltas.
	name, base, ptr string
	_               [0]func()
}

// SetTools makes tools (an AG-UI Tool[]: {name, description, parameters})
// known for validating tool-call arguments, beside those a RunAgentInput
// carries (RunInput, RUN_STARTED.input.tools). A later definition of a
// name replaces the earlier one: a call streams against the schema known
// when it started and is judged at its end against the one known then.
func (r *Reducer) SetTools(tools jsontree.Value) {
	a, _ := tools.(*jsontree.Array)
	if a == nil {
		return
	}
	if r.tools == nil {
		r.tools = make(map[string]*toolSchema)
	}
	for _, e := range a.Elems {
		o, _ := e.(*jsontree.Object)
		if o == nil {
			continue
		}
		nv, _ := o.Get("name")
		name, _ := nv.(string)
		params, has := o.Get("parameters")
		if name == "" || !has {
			continue
		}
		// Compiling is cheap next to a run: the same tools sent with
		// every run are compiled again.
		s, err := toolschema.Compile(params)
		if err != nil {
			delete(r.tools, name)
			continue
		}
		r.tools[name] = &toolSchema{schema: s}
	}
}

// startArgsCheck sets a new call's validation going. The first call of a
// tool whose schema uses keywords that are not checked says so, once, as
// a warning (c is nil on restore).
func (r *Reducer) startArgsCheck(c *Change, t *ToolCall) {
	t.check = argsCheck{}
	t.ArgsStatus, t.SafeArgs = ArgsUnchecked, nil
	if ts := r.tools[t.Name]; ts != nil {
		t.ArgsStatus, t.SafeArgs = ArgsStreaming, jsontree.NewObject(0)
		t.check.stream = ts.schema.Stream(maxArgsErrors)
		if u := ts.schema.Unchecked(); len(u) > 0 && !ts.told && c != nil {
			ts.told = true
			c.warn("schema_not_checked", "TOOL_CALL_START: the schema of tool '"+t.Name+"' uses keywords that are not checked: "+strings.Join(u, ", "))
		}
	}
}

// checkEdit feeds one parser edit to the call's validation and keeps its
// state and the change record up to date.
//
// Safe arguments (calls with a schema only): a top-level member of the
// arguments object joins them when it is complete and brought no error; a
// string member that nothing but its type constrains joins them as it
// starts and follows its text delta by delta (so that a 100 KB string
// costs no 100 KB operation when it closes).
func (r *Reducer) checkEdit(c *Change, t *ToolCall, e partialjson.Edit) {
	ck := &t.check
	if ck.stream == nil {
		return
	}
	added := ck.stream.Edit(e)
	if added > 0 {
		r.addArgsErrors(c, t)
	}
	o, _ := t.SafeArgs.(*jsontree.Object)
	switch e.Op {
	case partialjson.Add, partialjson.Replace:
		if ck.depth == 0 {
			_, ck.root = e.Value.(*jsontree.Object)
		}
		member := ck.depth == 1 && ck.root && o != nil
		if member {
			ck.key, ck.before = e.Path[1:], r.argsErrorCount(t)-added
		}
		switch e.Value.(type) {
		case string:
			if member && added == 0 && ck.stream.OpenFree() {
				ck.free, ck.name = true, unescapeToken(ck.key)
				o.Set(ck.name, "")
				c.add(ck.safePointer(t), []byte(`""`))
			}
			ck.depth++
		case *jsontree.Object, *jsontree.Array:
			ck.depth++
		default:
			if member {
				r.safeMember(c, t, o, e.Value)
			}
		}
	case partialjson.Append:
		if ck.free {
			// The parser's view of the string's text (no copy).
			o.Set(ck.name, t.parser.p.OpenText())
			c.appendText(ck.safePointer(t), e.Text)
		}
	case partialjson.End:
		ck.depth--
		if ck.depth == 1 && ck.root && o != nil {
			if ck.free {
				ck.free = false
				o.Set(ck.name, e.Value) // the same text, complete
			} else {
				r.safeMember(c, t, o, e.Value)
			}
		}
	}
}

// safePointer is the pointer of the free member's safe argument.
func (ck *argsCheck) safePointer(t *ToolCall) string {
	if base := toolCallPath(t); base != ck.base || ck.ptr == "" {
		ck.base, ck.ptr = base, base+"/safeArgs/"+ck.key
	}
	return ck.ptr
}

//go:noinline
func (r *Reducer) argsErrorCount(t *ToolCall) int {
	return len(t.check.stream.Errors()) + t.check.stream.Dropped()
}

// safeMember adds the member just completed to the safe arguments unless
// it brought an error.
func (r *Reducer) safeMember(c *Change, t *ToolCall, o *jsontree.Object, v jsontree.Value) {
	if r.argsErrorCount(t) != t.check.before {
		return
	}
	v = jsontree.Clone(v)
	o.Set(unescapeToken(t.check.key), v)
	c.add(toolCallPath(t)+"/safeArgs/"+t.check.key, jsonValue(v))
}

func unescapeToken(s string) string {
	if strings.IndexByte(s, '~') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// addArgsErrors copies the stream's errors to the call, which is invalid.
func (r *Reducer) addArgsErrors(c *Change, t *ToolCall) {
	r.setArgsCheck(c, t, ArgsInvalid, slices.Clone(t.check.stream.Errors()))
}

// setArgsCheck records the call's verdict and errors, in the state and the
// change record (the errors are few: written whole; an add replaces).
func (r *Reducer) setArgsCheck(c *Change, t *ToolCall, status string, errs []toolschema.Error) {
	path := toolCallPath(t)
	if status != t.ArgsStatus {
		t.ArgsStatus = status
		c.replace(path+"/argsStatus", jsonString(status))
	}
	if errs != nil {
		c.add(path+"/argsErrors", appendArgsErrors(nil, errs))
	} else if t.ArgsErrors != nil {
		c.remove(path + "/argsErrors")
	}
	t.ArgsErrors = errs
}

// finalArgsCheck judges the complete arguments (exact is nil when they
// did not parse: truncated) and records the verdict. The safe arguments
// become all of them when they are valid; else they stay the members that
// completed valid while streaming (a call without a schema has none).
func (r *Reducer) finalArgsCheck(c *Change, t *ToolCall, exact jsontree.Value, parseErr error) {
	status, errs, safe := ArgsUnchecked, []toolschema.Error(nil), t.SafeArgs
	var schema *toolschema.Schema
	if ts := r.tools[t.Name]; ts != nil {
		schema = ts.schema
	}
	switch {
	case parseErr != nil:
		status = ArgsInvalid
		errs = []toolschema.Error{{Keyword: "truncated", Message: "the arguments are not complete JSON: " + parseErr.Error()}}
	case schema != nil:
		status = ArgsValid
		if errs = schema.Validate(exact, maxArgsErrors); len(errs) > 0 {
			status = ArgsInvalid
		}
	}
	if status == ArgsValid {
		safe = exact
	}
	t.check = argsCheck{}
	r.setArgsCheck(c, t, status, errs)
	// Valid arguments are safe whole: usually what streamed in already
	// (equal, and from the same text), else written whole.
	if safe != nil && !jsontree.Equal(safe, t.SafeArgs) {
		safe = jsontree.Clone(safe)
		c.add(toolCallPath(t)+"/safeArgs", jsonValue(safe))
	}
	t.SafeArgs = safe
}

func appendArgsErrors(dst []byte, errs []toolschema.Error) []byte {
	dst = append(dst, '[')
	for i, e := range errs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"path":`...)
		dst = jsontree.AppendString(dst, e.Path)
		dst = append(dst, `,"keyword":`...)
		dst = jsontree.AppendString(dst, e.Keyword)
		dst = append(dst, `,"message":`...)
		dst = jsontree.AppendString(dst, e.Message)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// rebuildArgsCheck sets t's parser and validation up again from its
// argument text so far (a restore, a rewind, an amendment), for the tools
// known now.
func (r *Reducer) rebuildArgsCheck(t *ToolCall) {
	t.parser.p = newArgsParser(r.opt.MaxDepth)
	r.startArgsCheck(nil, t)
	t.ArgsErrors = nil
	var scratch Change
	t.parser.p.Write(string(t.args), func(e partialEdit) { r.checkEdit(&scratch, t, e) })
}
