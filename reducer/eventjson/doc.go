// Package eventjson is what reading an event from its JSON text takes,
// shared by the reducer (package reducer, canonical AG-UI) and the
// translators in front of it (package dialect, other dialects), so that
// both accept and reject alike.
//
// The model: an event is one JSON object, parsed into a tree (package
// jsontree) within Limits — its size (MaxEventBytes), its nesting
// (MaxDepth) and the size one streamed field may grow to (MaxFieldBytes);
// a zero limit means its default, the same for every package. ParseObject
// parses the text; a Fields then reads the object's members by name and
// type: a required string, an optional one (null counts as absent), an
// array, an object, the base metadata. A Fields remembers the first
// problem it meets and reads on, so decoding code stays linear: read every
// member, then check Err once. A problem is an *Error, a stable code
// ("bad_json", "bad_event") and a message naming the event type and the
// member; callers report it as their own diagnostic. Reconcile is the one
// rule both apply to what an event carries: a text a producer sends whole
// after streaming it is compared with what was streamed.
//
// The package is pure: no I/O, no globals, no clock.
package eventjson
