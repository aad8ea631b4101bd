package reducer

import (
	"bytes"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The fast snapshot decoder. A snapshot is mostly its messages, and
// building a jsontree for each (an object, its key and value slices, a boxed
// string per value) before copying it into a Message costs about ten
// allocations a message; in WebAssembly, where the collector runs on the one
// thread, that dominates a restore. loadFast validates the snapshot once
// with jsontree.ScanObject (Parse's grammar, depth and errors), decodes the
// messages straight from the bytes into Messages (walking them without
// validating them again: restore_scan.go), and hands every other member to
// the tree loader as a small object.
//
// It only decides success: on anything that the tree loader would refuse it
// gives up, and Restore runs loadTree, whose error is the diagnostic. So the
// two accept exactly the same snapshots and loadFast never has to reproduce
// an error message; FuzzRestoreDecoders holds them to that.
//
// Strings without escapes or invalid UTF-8 (nearly all) are cut from one
// string copy of the snapshot, and message texts from one byte copy, those
// with escapes decoded in place over their own JSON (each capped at its own
// length, so an append reallocates rather than writing into its
// neighbour): two allocations for all of them. The price is that a
// message still held keeps those copies of the whole snapshot alive: twice
// the snapshot's size at most, a bounded multiple of what the caller sent.

// restoreOptions are the parse options of a restore: see loadTree.
var restoreOptions = jsontree.ParseOptions{MaxDepth: restoreMaxDepth}

// snapDecoder cuts strings out of one snapshot.
type snapDecoder struct {
	data []byte // the snapshot: every span handed out is a subslice of it
	str  string // string(data), made on first use
	buf  []byte // a copy of data, made on first use
}

// off is the offset of span in d.data.
func (d *snapDecoder) off(span []byte) int { return cap(d.data) - cap(span) }

// plain reports whether the JSON string raw (quotes included) decodes to
// its own bytes: no escapes, valid UTF-8 (as Parse decides).
func plain(raw []byte) bool {
	s := raw[1 : len(raw)-1]
	return jsontree.IndexQuote(s) < 0 && utf8.Valid(s)
}

// string decodes the JSON string raw, a span of d.data.
func (d *snapDecoder) string(raw []byte) string {
	if !plain(raw) {
		s, _ := jsontree.UnquoteString(raw) // raw is valid: checked by the scan
		return s
	}
	if d.str == "" {
		d.str = string(d.data)
	}
	o := d.off(raw)
	return d.str[o+1 : o+len(raw)-1]
}

// bytes decodes the JSON string raw, a span of d.data, into a slice whose
// capacity is its length.
func (d *snapDecoder) bytes(raw []byte) []byte {
	if d.buf == nil {
		d.buf = bytes.Clone(d.data)
	}
	o := d.off(raw)
	b := d.buf[o+1 : o+len(raw)-1 : o+len(raw)-1]
	if jsontree.IndexQuote(b) < 0 && utf8.Valid(b) {
		return b
	}
	// Decoded in place, over its own copy: escapes only shrink, so the
	// text fits where its JSON was.
	return decodeInPlace(b, raw)
}

// optStr is fields.optStr on a raw member: absent or null is ("", false), a
// string is (s, true), anything else is a refusal (ok false).
func (d *snapDecoder) optStr(raw []byte) (s string, has, ok bool) {
	switch jsontree.KindOf(raw) {
	case jsontree.KindInvalid, jsontree.KindNull: // KindInvalid: absent
		return "", false, true
	case jsontree.KindString:
		return d.string(raw), true, true
	}
	return "", false, false
}

// reqStr is fields.str(key, true) on a raw member.
func (d *snapDecoder) reqStr(raw []byte) (string, bool) {
	if jsontree.KindOf(raw) != jsontree.KindString {
		return "", false
	}
	return d.string(raw), true
}

// tree parses a raw member, validated by the scan.
func tree(raw []byte) jsontree.Value {
	v, _ := jsontree.Parse(raw, restoreOptions)
	return v
}

// loadFast loads data into r, a fresh Reducer, and reports whether it
// could; when it could not, r is to be thrown away.
func (r *Reducer) loadFast(data []byte) bool {
	rest := jsontree.NewObject(16)
	var msgs []byte
	err := jsontree.ScanObject(data, restoreOptions, func(key, value []byte) error {
		if string(key) == "messages" {
			msgs = value // a repeated key: the last value, as Parse
			return nil
		}
		rest.Set(string(key), tree(value))
		return nil
	})
	if err != nil || r.load(rest) != nil {
		return false
	}
	switch jsontree.KindOf(msgs) {
	case jsontree.KindInvalid, jsontree.KindNull:
		return true
	case jsontree.KindArray:
	default:
		return false
	}
	w := walkMessages(msgs)
	spans := w.elems
	if len(spans) == 0 {
		return true
	}
	// Sized once, as load does.
	r.st.Messages = make([]*Message, 0, len(spans))
	r.forgetTokens()
	r.msgByID = make(map[string]*Message, len(spans))
	d := &snapDecoder{data: data}
	// One block of Messages rather than one allocation each: in wasm,
	// blocks of 256 made the collector run during the decode and took
	// twice as long (BenchmarkRestore). A message still held keeps the
	// block alive, at most what the snapshot's conversation took.
	block := make([]Message, len(spans))
	for i, sp := range spans {
		m := &block[i]
		var f [smCount][]byte // raw members; nil when absent
		w.fields(msgs, i, &f)
		if !d.message(m, msgs[sp.start:sp.end], &f) {
			return false
		}
		r.addLoaded(m)
	}
	return true
}

// The members of a snapshot message that loadMessage reads.
const (
	smID = iota
	smRole
	smContent
	smName
	smSubagentRunID
	smReasoning
	smReasoningDuration
	smCitations
	smToolCallIDs
	smToolCallID
	smError
	smActivityType
	smEncryptedValue
	smMetadata
	smStreaming
	smCount
)

// message decodes the snapshot message raw, whose members are f, into m as
// loadMessage does, or reports false where loadMessage fails.
func (d *snapDecoder) message(m *Message, raw []byte, f *[smCount][]byte) bool {
	if jsontree.KindOf(raw) != jsontree.KindObject {
		return false
	}
	var ok bool
	if m.ID, ok = d.reqStr(f[smID]); !ok {
		return false
	}
	if m.Role, ok = d.reqStr(f[smRole]); !ok {
		return false
	}
	switch jsontree.KindOf(f[smContent]) {
	case jsontree.KindString:
		m.contentKind, m.text = contentText, d.bytes(f[smContent])
		if len(m.text) == 0 && m.Role == "assistant" {
			m.contentKind = contentNone
		}
	case jsontree.KindArray, jsontree.KindObject:
		m.contentKind, m.value = contentValue, tree(f[smContent])
	default:
		return false
	}
	if m.Name, m.hasName, ok = d.optStr(f[smName]); !ok {
		return false
	}
	if m.SubagentRunID, m.HasSubagentRunID, ok = d.optStr(f[smSubagentRunID]); !ok {
		return false
	}
	switch raw := f[smReasoning]; jsontree.KindOf(raw) {
	case jsontree.KindInvalid, jsontree.KindNull:
	case jsontree.KindString:
		m.hasReasoning, m.reasoning = true, d.bytes(raw)
		m.reasoningSlot = m.contentKind == contentNone
	default:
		return false
	}
	if raw := f[smReasoningDuration]; raw != nil {
		if jsontree.KindOf(raw) != jsontree.KindNumber {
			return false
		}
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return false
		}
		m.ReasoningDurationMs, m.HasReasoningDuration = v, true
	}
	switch raw := f[smCitations]; jsontree.KindOf(raw) {
	case jsontree.KindInvalid, jsontree.KindNull:
	case jsontree.KindArray:
		m.Citations = tree(raw).(*jsontree.Array)
	default:
		return false
	}
	switch raw := f[smToolCallIDs]; jsontree.KindOf(raw) {
	case jsontree.KindInvalid, jsontree.KindNull:
	case jsontree.KindArray:
		m.ToolCallIDs = []string{}
		if jsontree.ScanArray(raw, restoreOptions, func(elem []byte) error {
			if jsontree.KindOf(elem) != jsontree.KindString {
				return errRefused
			}
			m.ToolCallIDs = append(m.ToolCallIDs, d.string(elem))
			return nil
		}) != nil {
			return false
		}
	default:
		return false
	}
	if m.Role == "tool" {
		if m.ToolCallID, ok = d.reqStr(f[smToolCallID]); !ok {
			return false
		}
	}
	if raw := f[smError]; raw != nil {
		m.ErrorValue = tree(raw) // null is nil: no error
	}
	if m.Role == "activity" {
		if m.ActivityType, ok = d.reqStr(f[smActivityType]); !ok {
			return false
		}
	}
	if m.EncryptedValue, m.HasEncryptedValue, ok = d.optStr(f[smEncryptedValue]); !ok {
		return false
	}
	if raw := f[smMetadata]; raw != nil {
		if jsontree.KindOf(raw) != jsontree.KindObject {
			return false // null included, as fields.metadata
		}
		m.Metadata = tree(raw).(*jsontree.Object)
	}
	if m.Role == "activity" && m.contentKind == contentValue {
		if _, isObj := m.value.(*jsontree.Object); !isObj {
			return false
		}
	}
	m.charge = activityCharge(m)
	if raw := f[smStreaming]; raw != nil {
		m.Streaming = string(raw) == "true"
	}
	return true
}

// errRefused stops a scan whose input the fast decoder leaves to the tree
// decoder.
var errRefused = errors.New("left to the tree decoder")
