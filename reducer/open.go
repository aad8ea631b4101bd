package reducer

// A run's end stops the messages that stream and the tool calls that run
// (closeOpen). Rather than scan the whole conversation for them, the scans
// start at openFrom's indexes: no message before msgs streams, no tool
// call before tools runs. New ones are appended past them (a tool call
// runs only from its start); what reopens an earlier message moves msgs
// back (reopened); what replaces the lists (a restore, a rewind, a
// messages snapshot) resets them to 0.
type openFrom struct{ msgs, tools int }

// reopened notes that the message at index pos streams (again).
func (r *Reducer) reopened(pos int) {
	r.open.msgs = min(r.open.msgs, pos)
}
