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
	touched, ok := r.applyPatch(c, &r.st.State, ev.Patch, "/state", "STATE_DELTA", b)
	if ok {
		r.stateBytes = b.Size
	}
	if ok && touched {
		r.bridgeCitations(c)
	}
}

// applyPatch decodes and applies patch to *doc atomically. The change ops
// are recorded under prefix. It reports success, and whether the patch
// touched the citations (or the whole document).
func (r *Reducer) applyPatch(c *Change, doc *jsontree.Value, patch jsontree.Value, prefix, what string, b *jsonpatch.Bounds) (citations, ok bool) {
	ops, err := jsonpatch.Decode(patch)
	if err != nil {
		c.fail("patch_failed", "Failed to apply "+what+" patch: "+err.Error())
		return false, false
	}
	mark := len(c.Ops)
	newDoc, err := jsonpatch.ApplyBounded(*doc, ops, func(ch jsonpatch.Change) {
		path := prefix + ch.Path
		if ch.Path == "" || strings.HasPrefix(ch.Path, "/citations") {
			citations = true
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

// bridgeCitations copies state.citations[messageId] onto the messages, and
// clears citations of messages no longer listed.
func (r *Reducer) bridgeCitations(c *Change) {
	var cits *jsontree.Object
	if o, ok := r.st.State.(*jsontree.Object); ok {
		v, _ := o.Get("citations")
		cits, _ = v.(*jsontree.Object)
	}
	// Walk the cited messages in conversation order so change records are
	// deterministic.
	stale := make([]*Message, 0, len(r.cited))
	for m := range r.cited {
		stale = append(stale, m)
	}
	slices.SortFunc(stale, func(a, b *Message) int { return a.pos - b.pos })
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
