package reducer

import (
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
	text   string // the parameters as JSON, to skip recompiling the same
	schema *toolschema.Schema
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
}

// SetTools makes tools (an AG-UI Tool[]: {name, description, parameters})
// known for validating tool-call arguments, beside those a RunAgentInput
// carries (RunInput, RUN_STARTED.input.tools). A later definition of a
// name replaces the earlier one; calls already started keep theirs.
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
		text := string(jsontree.AppendJSON(nil, params))
		if old := r.tools[name]; old != nil && old.text == text {
			continue
		}
		s, err := toolschema.Compile(params)
		if err != nil {
			delete(r.tools, name)
			continue
		}
		r.tools[name] = &toolSchema{text: text, schema: s}
	}
}

// startArgsCheck sets a new call's validation going.
func (r *Reducer) startArgsCheck(t *ToolCall) {
	t.ArgsStatus = ArgsUnchecked
	t.SafeArgs = jsontree.NewObject(0)
	if ts := r.tools[t.Name]; ts != nil {
		t.ArgsStatus = ArgsStreaming
		t.check.stream = ts.schema.Stream(maxArgsErrors)
		t.ArgsNotChecked = ts.schema.Unchecked()
	}
}

// checkEdit feeds one parser edit to the call's validation and keeps its
// state and the change record up to date.
func (r *Reducer) checkEdit(c *Change, t *ToolCall, e partialjson.Edit) {
	ck := &t.check
	var added int
	if ck.stream != nil {
		added = ck.stream.Edit(e)
		if added > 0 {
			r.addArgsErrors(c, t)
		}
	}
	// Safe arguments: a top-level member of an object joins them when it
	// is complete and brought no error.
	switch e.Op {
	case partialjson.Add, partialjson.Replace:
		if ck.depth == 0 {
			_, ck.root = e.Value.(*jsontree.Object)
		}
		if ck.depth == 1 && ck.root {
			ck.key = e.Path[1:]
			ck.before = r.argsErrorCount(t) - added
		}
		switch e.Value.(type) {
		case *jsontree.Object, *jsontree.Array, string:
			ck.depth++
		default:
			if ck.depth == 1 && ck.root {
				r.safeMember(c, t, e.Value)
			}
		}
	case partialjson.End:
		ck.depth--
		if ck.depth == 1 && ck.root {
			r.safeMember(c, t, e.Value)
		}
	}
}

func (r *Reducer) argsErrorCount(t *ToolCall) int {
	if t.check.stream == nil {
		return 0
	}
	return len(t.check.stream.Errors()) + t.check.stream.Dropped()
}

// safeMember adds the member just completed to the safe arguments unless
// it brought an error.
func (r *Reducer) safeMember(c *Change, t *ToolCall, v jsontree.Value) {
	if r.argsErrorCount(t) != t.check.before {
		return
	}
	key := unescapeToken(t.check.key)
	o, _ := t.SafeArgs.(*jsontree.Object)
	if o == nil {
		return
	}
	v = jsontree.Clone(v)
	o.Set(key, v)
	c.add(toolCallPath(t)+"/safeArgs/"+t.check.key, jsonValue(v))
}

func unescapeToken(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			var b []byte
			for j := 0; j < len(s); j++ {
				if s[j] == '~' && j+1 < len(s) {
					if s[j+1] == '1' {
						b = append(b, '/')
					} else {
						b = append(b, '~')
					}
					j++
					continue
				}
				b = append(b, s[j])
			}
			return string(b)
		}
	}
	return s
}

// addArgsErrors copies the stream's new errors to the call.
func (r *Reducer) addArgsErrors(c *Change, t *ToolCall) {
	errs := t.check.stream.Errors()
	path := toolCallPath(t)
	for _, e := range errs[len(t.ArgsErrors):] {
		if t.ArgsErrors == nil {
			t.ArgsErrors = []toolschema.Error{e}
			c.add(path+"/argsErrors", appendArgsErrors(nil, t.ArgsErrors))
			continue
		}
		t.ArgsErrors = append(t.ArgsErrors, e)
		c.add(path+"/argsErrors/-", appendArgsError(nil, e))
	}
	if t.ArgsStatus != ArgsInvalid {
		t.ArgsStatus = ArgsInvalid
		c.replace(path+"/argsStatus", jsonString(ArgsInvalid))
	}
}

// finalArgsCheck judges the complete arguments (exact is nil when they
// did not parse: truncated) and records the verdict.
func (r *Reducer) finalArgsCheck(c *Change, t *ToolCall, exact jsontree.Value, parseErr error) {
	status, errs := ArgsUnchecked, []toolschema.Error(nil)
	safe := t.SafeArgs
	var schema *toolschema.Schema
	if ts := r.tools[t.Name]; ts != nil && t.check.stream != nil {
		schema = ts.schema
	}
	switch {
	case parseErr != nil:
		status = ArgsInvalid
		errs = []toolschema.Error{{Keyword: "truncated", Message: "the arguments are not complete JSON: " + parseErr.Error()}}
	case schema != nil:
		errs = schema.Validate(exact, maxArgsErrors)
		status = ArgsValid
		if len(errs) > 0 {
			status = ArgsInvalid
		}
		safe = safeOf(exact, errs)
	default:
		safe = safeOf(exact, nil)
	}
	t.check = argsCheck{}
	path := toolCallPath(t)
	if status != t.ArgsStatus {
		t.ArgsStatus = status
		c.replace(path+"/argsStatus", jsonString(status))
	}
	if !sameErrors(errs, t.ArgsErrors) {
		if len(errs) == 0 {
			c.remove(path + "/argsErrors")
		} else if t.ArgsErrors == nil {
			c.add(path+"/argsErrors", appendArgsErrors(nil, errs))
		} else {
			c.replace(path+"/argsErrors", appendArgsErrors(nil, errs))
		}
		t.ArgsErrors = errs
	}
	if !jsontree.Equal(safe, t.SafeArgs) || sameShapeDiffers(safe, t.SafeArgs) {
		t.SafeArgs = safe
		c.replace(path+"/safeArgs", jsonValue(safe))
	}
}

// safeOf is the safe form of complete arguments: all of them when valid;
// for an object, the members no error points into; else {}.
func safeOf(v jsontree.Value, errs []toolschema.Error) jsontree.Value {
	if len(errs) == 0 {
		return jsontree.Clone(v)
	}
	o, _ := v.(*jsontree.Object)
	out := jsontree.NewObject(0)
	if o == nil {
		return out
	}
	for _, e := range errs {
		if e.Path == "" && e.Keyword != "required" && e.Keyword != "minProperties" && e.Keyword != "maxProperties" {
			return out // the object as a whole is wrong
		}
	}
	var tok []byte
	for i := 0; i < o.Len(); i++ {
		tok = append(append(tok[:0], '/'), jsontree.AppendPointerToken(nil, o.KeyAt(i))...)
		bad := false
		for _, e := range errs {
			if len(e.Path) >= len(tok) && e.Path[:len(tok)] == string(tok) && (len(e.Path) == len(tok) || e.Path[len(tok)] == '/') {
				bad = true
				break
			}
		}
		if !bad {
			out.Set(o.KeyAt(i), jsontree.Clone(o.ValueAt(i)))
		}
	}
	return out
}

func sameErrors(a, b []toolschema.Error) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func appendArgsErrors(dst []byte, errs []toolschema.Error) []byte {
	dst = append(dst, '[')
	for i, e := range errs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendArgsError(dst, e)
	}
	return append(dst, ']')
}

func appendArgsError(dst []byte, e toolschema.Error) []byte {
	dst = append(dst, `{"path":`...)
	dst = jsontree.AppendString(dst, e.Path)
	dst = append(dst, `,"keyword":`...)
	dst = jsontree.AppendString(dst, e.Keyword)
	dst = append(dst, `,"message":`...)
	dst = jsontree.AppendString(dst, e.Message)
	return append(dst, '}')
}
