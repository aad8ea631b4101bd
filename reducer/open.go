package reducer

// A run's end stops the messages that stream (closeOpen). Rather than scan
// the whole conversation for them, the scan starts at openFrom.msgs: no
// message before that index streams. New messages are appended past it;
// what opens an earlier one moves it back (reopened); what replaces the
// list (a restore, a rewind, a messages snapshot) resets it to 0.
type openFrom struct{ msgs int }

// reopened notes that the message at index pos streams (again).
func (r *Reducer) reopened(pos int) {
	r.open.msgs = min(r.open.msgs, pos)
}
