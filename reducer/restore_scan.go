package reducer

import (
	"unicode/utf8"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// Walking text already validated. loadFast validates the whole snapshot
// once (jsontree.ScanObject); its message list is then walked without
// validating it again: the spans of the messages, the members of each, the
// strings' ends. Validated JSON needs no checks, only the ends of strings
// (a quote after an even run of backslashes) and of nested values.

// skipSpace returns the index of the first byte of b at or after i that is
// not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// strEnd returns the index after the closing quote of the valid string
// whose opening quote is at b[i].
func strEnd(b []byte, i int) int {
	j := i + 1
	for {
		q := jsontree.IndexQuote(b[j:])
		if q < 0 {
			return len(b) // not valid JSON: cannot happen after the scan
		}
		j += q
		if b[j] == '"' {
			return j + 1
		}
		j += 2 // an escape
	}
}

// valueEnd returns the index after the valid value that starts at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return strEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = strEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i + 1 // a number or a literal
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}

// walked is a message list walked once: each element's span and, for an
// object, the members loadFast reads, as offsets in the list (no pointers:
// it grows by plain copies and costs the collector nothing).
type walked struct {
	elems   []walkedElem
	members []walkedMember
}

type walkedElem struct{ start, end, members int } // members: its first in walked.members

type walkedMember struct{ k, start, end int } // k: smID…

// walkMessages walks the valid array arr.
func walkMessages(arr []byte) walked {
	var w walked
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		e := walkedElem{start: i, members: len(w.members)}
		if arr[i] == '{' {
			e.end = w.object(arr, i)
		} else {
			e.end = valueEnd(arr, i)
		}
		w.elems = append(w.elems, e)
		i = skipSpace(arr, e.end)
		if i >= len(arr) || arr[i] != ',' {
			break
		}
		i = skipSpace(arr, i+1)
	}
	return w
}

// object records the members of the valid object at arr[i] whose keys
// name one loadFast reads (each occurrence of a repeated key: the last one
// counts, as Parse keeps), and returns the index after it.
func (w *walked) object(arr []byte, i int) int {
	i = skipSpace(arr, i+1)
	if arr[i] == '}' {
		return i + 1
	}
	for {
		kEnd := strEnd(arr, i)
		key := arr[i+1 : kEnd-1]
		if jsontree.IndexQuote(key) >= 0 {
			// Escapes (which no Snapshot writes): the decoded key says
			// which member it is.
			k, _ := jsontree.UnquoteString(arr[i:kEnd])
			key = []byte(k)
		}
		v := skipSpace(arr, skipSpace(arr, kEnd)+1) // after the colon
		vEnd := valueEnd(arr, v)
		if k := memberIndex(key); k >= 0 {
			w.members = append(w.members, walkedMember{k, v, vEnd})
		}
		i = skipSpace(arr, vEnd)
		if arr[i] == '}' {
			return i + 1
		}
		i = skipSpace(arr, i+1) // after the comma
	}
}

// fields sets f to the members of element e as raw values of arr.
func (w *walked) fields(arr []byte, e int, f *[smCount][]byte) {
	end := len(w.members)
	if e+1 < len(w.elems) {
		end = w.elems[e+1].members
	}
	for _, m := range w.members[w.elems[e].members:end] {
		f[m.k] = arr[m.start:m.end]
	}
}

// memberIndex is the index in a message's members of key (decoded; a key
// with invalid UTF-8 decodes to one with U+FFFD, which names none), or -1.
func memberIndex(key []byte) int {
	switch string(key) {
	case "id":
		return smID
	case "role":
		return smRole
	case "content":
		return smContent
	case "name":
		return smName
	case "subagentRunId":
		return smSubagentRunID
	case "reasoning":
		return smReasoning
	case "reasoningDurationMs":
		return smReasoningDuration
	case "citations":
		return smCitations
	case "toolCallIds":
		return smToolCallIDs
	case "toolCallId":
		return smToolCallID
	case "error":
		return smError
	case "activityType":
		return smActivityType
	case "encryptedValue":
		return smEncryptedValue
	case "metadata":
		return smMetadata
	case "streaming":
		return smStreaming
	}
	return -1
}

// unescapeInto decodes the inside s of a valid JSON string that is valid
// UTF-8 and has only one-letter escapes (\n, \", …) into dst[:0], whose
// capacity is len(s), and reports whether it could: a \u escape is left to
// jsontree (surrogates, and their lone halves, have rules of their own).
// Runs between escapes are copied whole.
func unescapeInto(dst, s []byte) ([]byte, bool) {
	out := dst[:0]
	for {
		i := jsontree.IndexQuote(s) // a backslash: the text of a valid string
		if i < 0 {
			return append(out, s...), true
		}
		out = append(out, s[:i]...)
		var c byte
		switch s[i+1] {
		case '"', '\\', '/':
			c = s[i+1]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // 'u'
			return dst, false
		}
		out = append(out, c)
		s = s[i+2:]
	}
}

// decodeInPlace decodes the valid JSON string raw (quotes included) into
// b, the copy of its inside (so len(b) is len(raw)-2, and cap(b) too).
func decodeInPlace(b, raw []byte) []byte {
	s := raw[1 : len(raw)-1]
	if utf8.Valid(s) {
		if out, ok := unescapeInto(b, s); ok {
			return out
		}
	}
	// \u escapes or invalid UTF-8 (which grows into U+FFFD: the capped
	// append then takes a new array).
	out, _ := jsontree.AppendUnquoted(b[:0], raw)
	return out
}
