package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/eventjson"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Amend folds an amendment: what a translator of another dialect (package
// dialect, TranslateTo) says that canonical AG-UI has no event for. It is a
// JSON object; each member present amends one thing (docs/dialects.md,
// "Amendments"):
//
//	{"messageId", "content"}    the message's whole text so far: what extends
//	                            the text is appended, a stale prefix of it
//	                            changes nothing, a text that disagrees replaces it
//	{"messageId", "reasoning"}  the same for the message's reasoning
//	{"messageId", "metadata"}   merged into the message's metadata
//	{"toolCallId", "argsText"}  the same for the call's argument text
//	{"toolCallId", "args"}      the call's complete input, a JSON value: it
//	                            replaces the arguments unless their text
//	                            already parses to the same value
//	{"toolCallId", "name"}      names a call that has no name yet
//	{"toolCallId", "approval"}  the approval request the call waits for
//	{"toolCallId", "clientSide": true}
//	                            the client, not the agent, must run the call
//	{"finishReason"}            why the model stopped: metadata.finishReason of
//	                            the run's last assistant message
//	{"recoverable"}             whether the run's error may be retried
//
// Like ApplyAppend it adds to c. An amendment is the host's word, not the
// stream's: no event reaches it (a CUSTOM event of any name is a custom
// event), so a canonical stream cannot rewrite what its events ended. It
// is not subject to strict ordering, since it only amends entities other
// events made, and, being idempotent, it folds during a catch-up
// (catchup.go) too.
func (r *Reducer) Amend(c *Change, value []byte) {
	if len(value) > r.opt.MaxEventBytes {
		c.fail("too_large", "amendment of "+strconv.Itoa(len(value))+" bytes exceeds the limit of "+strconv.Itoa(r.opt.MaxEventBytes))
		return
	}
	v, err := jsontree.Parse(value, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth})
	if err != nil {
		c.fail("bad_event", "amendment is not valid JSON: "+err.Error())
		return
	}
	r.amend(c, v)
}

// amendWhat names an amendment in diagnostics.
const amendWhat = "amendment"

// amend folds an amendment. A value of the wrong shape is rejected whole.
func (r *Reducer) amend(c *Change, value jsontree.Value) {
	obj, _ := value.(*jsontree.Object)
	if obj == nil {
		c.fail("bad_event", amendWhat+": must be an object")
		return
	}
	f := fieldsOf(obj, amendWhat)
	msgID, hasMsg := f.OptStr("messageId")
	content, hasContent := f.OptStr("content")
	reasoning, hasReasoning := f.OptStr("reasoning")
	toolID, hasTool := f.OptStr("toolCallId")
	argsText, hasArgsText := f.OptStr("argsText")
	args, hasArgs := obj.Get("args")
	name, hasName := f.OptStr("name")
	approval := f.Object("approval")
	meta := f.Object("metadata")
	clientSide, _ := obj.Get("clientSide")
	reason, hasReason := f.OptStr("finishReason")
	recoverable, hasRecoverable := obj.Get("recoverable")
	if hasRecoverable {
		if _, isBool := recoverable.(bool); !isBool {
			f.Fail("recoverable must be a boolean")
		}
	}
	if (hasContent || hasReasoning || meta != nil) && !hasMsg || (hasArgsText || hasArgs || hasName || approval != nil || clientSide == true) && !hasTool {
		f.Fail("messageId or toolCallId is required")
	}
	if f.Err != nil {
		c.failErr(f.Err)
		return
	}
	// An amendment is refused whole, before anything changes: each text
	// becomes the field's whole text, so its length is what to check.
	var argsJSON []byte
	if hasArgs && args != nil {
		argsJSON = jsontree.AppendJSON(nil, args)
	}
	for _, x := range [...]struct {
		has  bool
		n    int
		what string
	}{{hasContent, len(content), "content"}, {hasReasoning, len(reasoning), "reasoning"}, {hasArgsText, len(argsText), "argsText"}, {argsJSON != nil, len(argsJSON), "args"}} {
		if x.has && x.n > r.opt.MaxFieldBytes {
			c.fail("too_large", amendWhat+": "+x.what+" exceeds the field limit")
			return
		}
	}
	if hasContent || hasReasoning || meta != nil {
		m := r.findMessage(msgID)
		if m == nil {
			// Named as the canonical event the amendment stands for.
			what := "TEXT_MESSAGE_CONTENT"
			if hasReasoning {
				what = "REASONING_MESSAGE_CONTENT"
			}
			c.warn("unknown_message", what+": No message found with ID '"+msgID+"'")
			return
		}
		if hasContent {
			r.amendText(c, m, content)
		}
		if hasReasoning {
			r.amendReasoning(c, m, reasoning)
		}
		mergeMetadata(c, &m.Metadata, meta, messagePath(m))
	}
	if hasTool {
		t := r.tool(toolID) // saved for a rewind before it changes (replay.go)
		if t == nil {
			c.warn("unknown_tool_call", "TOOL_CALL_ARGS: No message found containing tool call with ID '"+toolID+"'")
			return
		}
		if hasName && t.Name == "" && name != "" {
			t.Name = name
			c.replace(toolCallPath(t)+"/name", jsonString(name))
		}
		if hasArgs && args != nil {
			r.setToolInput(c, t, args)
		}
		if hasArgsText {
			r.amendArgs(c, t, argsText)
		}
		if approval != nil {
			t.Approval = jsontree.Clone(approval).(*jsontree.Object)
			c.add(toolCallPath(t)+"/approval", jsonValue(t.Approval))
		}
		if clientSide == true && !t.ClientSide {
			t.ClientSide = true
			c.add(toolCallPath(t)+"/clientSide", jsonBool(true))
		}
	}
	if hasReason {
		r.setFinishReason(c, reason)
	}
	if hasRecoverable {
		if e := r.st.Error; e != nil {
			e.Recoverable, e.HasRecoverable = recoverable.(bool), true
			c.add("/error/recoverable", jsonBool(e.Recoverable))
		}
	}
}

// amendText makes the content of m agree with text, its whole text so far.
func (r *Reducer) amendText(c *Change, m *Message, text string) {
	delta, replace := text, false
	if m.contentKind != contentValue {
		delta, replace = eventjson.Reconcile(m.text, text)
	}
	if !replace {
		if delta != "" {
			r.textContent(c, &Event{Type: TextMessageContent, MessageID: m.ID, Delta: delta, HasDelta: true})
		}
		return
	}
	if len(text) > r.opt.MaxFieldBytes {
		c.fail("too_large", amendWhat+": content exceeds the field limit")
		return
	}
	m.contentKind, m.value = contentText, nil
	m.text = []byte(text)
	c.replace(messagePath(m)+"/content", jsonString(text))
}

// amendReasoning makes the reasoning of m agree with text.
func (r *Reducer) amendReasoning(c *Change, m *Message, text string) {
	delta, replace := eventjson.Reconcile(m.reasoning, text)
	if replace && len(text) > r.opt.MaxFieldBytes {
		c.fail("too_large", amendWhat+": reasoning exceeds the field limit")
		return
	}
	if !replace {
		if delta != "" {
			r.reasoningContent(c, &Event{Type: ReasoningMessageContent, MessageID: m.ID, Delta: delta, HasDelta: true})
		}
		return
	}
	path := messagePath(m) + "/reasoning"
	if m.hasReasoning {
		c.replace(path, jsonString(text))
	} else {
		c.add(path, jsonString(text))
	}
	m.hasReasoning, m.reasoning = true, []byte(text)
}

// amendArgs makes the argument text of t agree with text.
func (r *Reducer) amendArgs(c *Change, t *ToolCall, text string) {
	delta, replace := eventjson.Reconcile(t.args, text)
	if !replace {
		if delta != "" {
			r.toolArgs(c, &Event{Type: ToolCallArgs, ToolCallID: t.ID, Delta: delta, HasDelta: true})
		}
		return
	}
	if len(text) > r.opt.MaxFieldBytes {
		c.fail("too_large", amendWhat+": argsText exceeds the field limit")
		return
	}
	r.setToolArgs(c, t, text)
}

// setToolInput makes input the arguments of t, unless its argument text
// already parses to the same value.
func (r *Reducer) setToolInput(c *Change, t *ToolCall, input jsontree.Value) {
	if len(t.args) > 0 {
		if v, err := jsontree.Parse(t.args, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth}); err == nil && jsontree.Equal(v, input) && !sameShapeDiffers(v, input) {
			return
		}
	}
	text := string(jsontree.AppendJSON(nil, input))
	if len(text) > r.opt.MaxFieldBytes {
		c.fail("too_large", amendWhat+": args exceed the field limit")
		return
	}
	r.setToolArgs(c, t, text)
}

// setToolArgs replaces the argument text of t wholesale, keeping args in
// step.
func (r *Reducer) setToolArgs(c *Change, t *ToolCall, text string) {
	path := toolCallPath(t)
	t.args = []byte(text)
	c.replace(path+"/argsText", jsonString(text))
	if t.parser.final {
		v, err := jsontree.Parse(t.args, jsontree.ParseOptions{MaxDepth: r.opt.MaxDepth})
		if len(t.args) == 0 {
			v, err = jsontree.NewObject(0), nil
		}
		if err != nil {
			v = jsontree.NewObject(0)
		}
		t.Args = v
		r.finalArgsCheck(c, t, v, err)
	} else {
		// Judged again from the new text; the change record gets the
		// difference.
		status, errs, safe := t.ArgsStatus, t.ArgsErrors, t.SafeArgs
		r.rebuildArgsCheck(t)
		newStatus, newErrs := t.ArgsStatus, t.ArgsErrors
		t.ArgsStatus, t.ArgsErrors = status, errs
		r.setArgsCheck(c, t, newStatus, newErrs)
		if !jsontree.Equal(safe, t.SafeArgs) {
			c.replace(path+"/safeArgs", jsonValue(t.SafeArgs))
		}
	}
	c.replace(path+"/args", jsonValue(t.liveArgs()))
}

// setFinishReason records why the model stopped as metadata.finishReason of
// the message it stopped: the last message of the conversation, looking
// past the tool messages that answer its tool calls, when it is an
// assistant message.
func (r *Reducer) setFinishReason(c *Change, reason string) {
	for i := len(r.st.Messages) - 1; i >= 0; i-- {
		m := r.st.Messages[i]
		if m.Role == "tool" {
			continue
		}
		if m.Role == "assistant" {
			r.touch(m)
			meta := jsontree.NewObject(1)
			meta.Set("finishReason", reason)
			mergeMetadata(c, &m.Metadata, meta, messagePath(m))
		}
		return
	}
}
