package reducer

import (
	"strconv"

	"github.com/agui-reducer/agui/reducer/jsonpatch"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The state budget (Options.MaxStateBytes) bounds what events can make the
// reducer hold beyond their own size: the shared state and the content of
// activity messages, the two documents that patches grow in place (a copy
// of the root doubles a document with one op). Sizes are jsontree.Size,
// about the JSON length, kept incrementally: what is inserted is measured
// when inserted, what is removed when removed, so the cost follows the
// event, never the size of the state. r.stateBytes is the size of the
// shared state; r.activityBytes the sum of the messages' charge (the size
// of an activity message's object content, 0 for any other message).

const defaultMaxStateBytes = 64 << 20

func (r *Reducer) maxState() int64 { return int64(r.opt.MaxStateBytes) }

// overBudget reports whether a state of stateBytes and activity content of
// activityBytes would exceed the budget.
func (r *Reducer) overBudget(stateBytes, activityBytes int64) bool {
	return stateBytes+activityBytes > r.maxState()
}

func (r *Reducer) budgetError(what string, need int64) string {
	return what + " would make the state " + strconv.FormatInt(need, 10) + " bytes, over the limit of " + strconv.Itoa(r.opt.MaxStateBytes) + " (maxStateBytes)"
}

// activityCharge is what m counts against the budget.
func activityCharge(m *Message) int64 {
	if m.Role == "activity" && m.contentKind == contentValue {
		return jsontree.Size(m.value)
	}
	return 0
}

// setCharge changes the charge of m, a message of the conversation.
func (r *Reducer) setCharge(m *Message, n int64) {
	r.activityBytes += n - m.charge
	m.charge = n
}

// setTextContent turns m's content into text (activity content included,
// as the official client overwrites it), releasing its charge.
func (r *Reducer) setTextContent(m *Message) {
	m.contentKind, m.value = contentText, nil
	r.setCharge(m, 0)
}

// sumCharges totals the charges of msgs.
func sumCharges(msgs []*Message) int64 {
	var n int64
	for _, m := range msgs {
		n += m.charge
	}
	return n
}

// patchBounds are the bounds of a patch on a document of size cur, when the
// rest of the budget holds other bytes.
func (r *Reducer) patchBounds(cur, other int64, objectRoot bool) *jsonpatch.Bounds {
	return &jsonpatch.Bounds{Size: cur, MaxSize: max(r.maxState()-other, 1), ObjectRoot: objectRoot}
}
