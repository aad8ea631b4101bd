package reducer

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/reducer/jsonpatch"
	"github.com/agui-reducer/agui/reducer/jsontree"
)

func (r *Reducer) stateSnapshot(c *Change, ev *Event) {
	n := jsontree.Size(ev.Snapshot)
	if r.overBudget(n, r.activityBytes) {
		c.fail("too_large", "STATE_SNAPSHOT: "+r.budgetError("the snapshot", n+r.activityBytes))
		return
	}
	r.st.State, r.stateBytes = ev.Snapshot, n
	c.replace("/state", jsonValue(ev.Snapshot))
	r.bridgeCitations(c)
}

// stateDelta applies an RFC 6902 patch to the shared state, all ops or none.
// The document stays parsed, so the cost follows the touched paths, not the
// state's size.
func (r *Reducer) stateDelta(c *Change, ev *Event) {
	b := r.patchBounds(r.stateBytes, r.activityBytes, false)
	b.Journal = r.journalFor()
	r.citeIDs, r.citeAll = r.citeIDs[:0], false
	if _, ok := r.applyPatch(c, &r.st.State, ev.Patch, "/state", "STATE_DELTA", b); !ok {
		return
	}
	r.stateBytes = b.Size
	switch {
	case r.citeAll:
		r.bridgeCitations(c)
	case len(r.citeIDs) > 0:
		r.bridgeCitationIDs(c, r.citeIDs)
	}
	clear(r.citeIDs)
}

// noteCitations records which citations a change of the shared state
// touched: the entry of one message id, or all of them.
func (r *Reducer) noteCitations(path string) {
	const prefix = "/citations"
	if path == "" || path == prefix {
		r.citeAll = true
		return
	}
	if !strings.HasPrefix(path, prefix+"/") {
		return
	}
	tok := path[len(prefix)+1:]
	if i := strings.IndexByte(tok, '/'); i >= 0 {
		tok = tok[:i]
	}
	if strings.IndexByte(tok, '~') >= 0 {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	r.citeIDs = append(r.citeIDs, tok)
}

// applyPatch decodes and applies patch to *doc atomically. The change ops
// are recorded under prefix. It reports success, and whether the patch
// touched the citations (or the whole document).
func (r *Reducer) applyPatch(c *Change, doc *jsontree.Value, patch jsontree.Value, prefix, what string, b *jsonpatch.Bounds) (citations, ok bool) {
	// The citations a state patch touched are noted by noteCitations.
	ops, err := jsonpatch.Decode(patch)
	if err != nil {
		c.fail("patch_failed", "Failed to apply "+what+" patch: "+err.Error())
		return false, false
	}
	mark := len(c.Ops)
	newDoc, err := jsonpatch.ApplyBounded(*doc, ops, func(ch jsonpatch.Change) {
		path := prefix + ch.Path
		if prefix == "/state" {
			r.noteCitations(ch.Path)
		}
		switch ch.Op {
		case "add":
			c.add(path, ch.Value)
		case "replace":
			c.replace(path, ch.Value)
		case "remove":
			if ch.Path == "" {
				c.replace(path, []byte("null"))
			} else {
				c.remove(path)
			}
		}
	}, b)
	if err != nil {
		clear(c.Ops[mark:])
		c.Ops = c.Ops[:mark]
		if e, _ := err.(*jsonpatch.Error); e != nil && e.Code == jsonpatch.CodeTooLarge {
			c.fail("too_large", what+": op "+strconv.Itoa(e.Index)+" would grow the state past the limit of "+strconv.Itoa(r.opt.MaxStateBytes)+" bytes (maxStateBytes); patch refused")
			return false, false
		}
		c.fail("patch_failed", "Failed to apply "+what+" patch: "+err.Error())
		return false, false
	}
	*doc = newDoc
	return citations, true
}

// The citations bridge keeps this invariant after every event: the first
// message with an id listed in state.citations carries the normalised
// entry, and no other message carries citations. A patch re-bridges only
// the ids it touched (bridgeCitationIDs); a new message picks up its entry
// when it is added (citeNew); a snapshot of the state or of the messages,
// or a patch replacing state.citations whole, re-bridges everything
// (bridgeCitations).

// citationsObject returns state.citations when it is an object.
func (r *Reducer) citationsObject() *jsontree.Object {
	o, ok := r.st.State.(*jsontree.Object)
	if !ok || o == nil {
		return nil
	}
	v, _ := o.Get("citations")
	cits, _ := v.(*jsontree.Object)
	return cits
}

// citeNew gives a message being added the citations listed for its id,
// before its JSON is recorded.
func (r *Reducer) citeNew(m *Message) {
	if r.msgByID[m.ID] != m {
		return
	}
	cits := r.citationsObject()
	if cits == nil {
		return
	}
	if v, ok := cits.Get(m.ID); ok {
		m.Citations = normalizeCitations(v)
		r.cited[m] = struct{}{}
	}
}

// uncite removes the citations of m, a message no longer first with its
// id, as it stops being first.
func (r *Reducer) uncite(c *Change, m *Message) {
	if _, ok := r.cited[m]; !ok {
		return
	}
	delete(r.cited, m)
	if m.Citations != nil {
		r.touch(m)
		m.Citations = nil
		c.remove(messagePath(m) + "/citations")
	}
}

// bridgeCitationIDs re-bridges the entries of the given ids only.
func (r *Reducer) bridgeCitationIDs(c *Change, ids []string) {
	cits := r.citationsObject()
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			continue
		}
		m := r.msgByID[id]
		if m == nil {
			continue
		}
		var v jsontree.Value
		ok := false
		if cits != nil {
			v, ok = cits.Get(id)
		}
		if !ok {
			r.uncite(c, m)
			continue
		}
		norm := normalizeCitations(v)
		if m.Citations != nil && jsontree.Equal(m.Citations, norm) {
			continue
		}
		r.touch(m)
		m.Citations = norm
		r.cited[m] = struct{}{}
		c.add(messagePath(m)+"/citations", jsonValue(norm))
	}
}

// bridgeCitations copies state.citations[messageId] onto the messages, and
// clears citations of messages no longer listed.
func (r *Reducer) bridgeCitations(c *Change) {
	cits := r.citationsObject()
	// Walk the cited messages in conversation order so change records are
	// deterministic.
	stale := make([]*Message, 0, len(r.cited))
	for m := range r.cited {
		stale = append(stale, m)
	}
	sortByPos(stale)
	for _, m := range stale {
		if cits != nil {
			if _, ok := cits.Get(m.ID); ok && r.findMessage(m.ID) == m {
				continue
			}
		}
		delete(r.cited, m)
		if m.Citations != nil && m.pos < len(r.st.Messages) && r.st.Messages[m.pos] == m {
			r.touch(m)
			m.Citations = nil
			c.remove(messagePath(m) + "/citations")
		}
	}
	if cits == nil {
		return
	}
	for i := 0; i < cits.Len(); i++ {
		m := r.findMessage(cits.KeyAt(i))
		if m == nil {
			continue
		}
		norm := normalizeCitations(cits.ValueAt(i))
		if m.Citations != nil && jsontree.Equal(m.Citations, norm) {
			continue
		}
		m.Citations = norm
		r.cited[m] = struct{}{}
		c.add(messagePath(m)+"/citations", jsonValue(norm))
	}
}

var citationKeys = []string{"id", "index", "title", "url", "snippet", "sourceType", "iconUrl", "publishedAt"}

// normalizeCitations turns a citations entry (URLs or citation objects) into
// Citation objects: known keys kept, anything else under "extra".
func normalizeCitations(v jsontree.Value) *jsontree.Array {
	out := &jsontree.Array{Elems: []jsontree.Value{}}
	list, ok := v.(*jsontree.Array)
	if !ok {
		return out
	}
	for _, e := range list.Elems {
		switch e := e.(type) {
		case string:
			o := jsontree.NewObject(1)
			o.Set("url", e)
			out.Elems = append(out.Elems, o)
		case *jsontree.Object:
			o := jsontree.NewObject(e.Len())
			var extra *jsontree.Object
			for _, k := range citationKeys {
				if x, ok := e.Get(k); ok {
					o.Set(k, jsontree.Clone(x))
				}
			}
			for i := 0; i < e.Len(); i++ {
				k := e.KeyAt(i)
				if isCitationKey(k) {
					continue
				}
				if extra == nil {
					extra = jsontree.NewObject(1)
				}
				extra.Set(k, jsontree.Clone(e.ValueAt(i)))
			}
			if extra != nil {
				o.Set("extra", extra)
			}
			out.Elems = append(out.Elems, o)
		}
	}
	return out
}

func isCitationKey(k string) bool {
	for _, x := range citationKeys {
		if x == k {
			return true
		}
	}
	return false
}

// sortByPos sorts ms by position, in place: a heapsort, which costs the
// WebAssembly module a fraction of slices.SortFunc's pattern-defeating
// quicksort (about 18 KB of code, for this one call). Positions are
// distinct unless messages left the conversation, whose order was never
// defined (they come from a map).
func sortByPos(ms []*Message) {
	siftDown := func(root, n int) {
		for {
			child := 2*root + 1
			if child >= n {
				return
			}
			if child+1 < n && ms[child].pos < ms[child+1].pos {
				child++
			}
			if ms[root].pos >= ms[child].pos {
				return
			}
			ms[root], ms[child] = ms[child], ms[root]
			root = child
		}
	}
	for i := len(ms)/2 - 1; i >= 0; i-- {
		siftDown(i, len(ms))
	}
	for end := len(ms) - 1; end > 0; end-- {
		ms[0], ms[end] = ms[end], ms[0]
		siftDown(0, end)
	}
}
