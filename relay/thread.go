package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
	"github.com/agui-reducer/agui/reducer/jsontree"
	"github.com/agui-reducer/agui/relay/store"
)

// Threads: after each run the relay folds the thread's finished runs, in
// order, into a reducer snapshot (package reducer), and drops the frames
// of the oldest folded runs while the thread is over its byte limit.
// GET /threads/{threadId} restores that snapshot and answers with the
// conversation as it stands, whatever the thread's length.

// readRun returns a run and all its frames.
func (s *Server) readRun(ctx context.Context, key string) (*store.Run, []store.Frame, error) {
	var all []store.Frame
	var after int64
	for {
		fs, run, err := s.store.Read(ctx, key, after, 4096, 0)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, fs...)
		if len(fs) == 0 || fs[len(fs)-1].Seq >= run.Frames {
			return run, all, nil
		}
		after = fs[len(fs)-1].Seq
	}
}

// applyInput folds a run's input messages: user messages and the results
// of tools the client ran.
func applyInput(r *reducer.Reducer, input []byte) {
	if len(input) == 0 {
		return
	}
	v, err := jsontree.Parse(input, jsontree.ParseOptions{})
	if err != nil {
		return
	}
	arr, ok := v.(*jsontree.Array)
	if !ok {
		return
	}
	for i := 0; i < arr.Len(); i++ {
		m, ok := arr.Elems[i].(*jsontree.Object)
		if !ok {
			continue
		}
		str := func(k string) string {
			v, _ := m.Get(k)
			s, _ := v.(string)
			return s
		}
		content, _ := m.Get("content")
		switch str("role") {
		case "user":
			r.AddUserMessage(content, str("id"))
		case "tool":
			c, _ := content.(string)
			if c == "" && content != nil {
				c = string(jsontree.AppendJSON(nil, content))
			}
			r.AddToolResult(str("toolCallId"), c)
		}
	}
}

func (s *Server) applyRun(ctx context.Context, r *reducer.Reducer, run *store.Run, frames []store.Frame) error {
	in, err := s.store.Input(ctx, run.Key)
	if err != nil {
		return err
	}
	applyInput(r, in)
	var c reducer.Change
	for _, f := range frames {
		if a, ok := dialect.AmendRecord(f.Data); ok {
			c.Reset()
			r.Amend(&c, a)
			continue
		}
		r.Apply(f.Data)
	}
	return nil
}

// unfolded reports whether a thread has finished runs not folded yet.
func (s *Server) unfolded(ctx context.Context, th *store.Thread) bool {
	for _, k := range th.Runs {
		_, run, err := s.store.Read(ctx, k, 0, 0, 0)
		if err == nil && !inSnapshot(th, run) && run.Done() {
			return true
		}
	}
	return false
}

// inSnapshot reports whether the snapshot of th (as read) holds run.
func inSnapshot(th *store.Thread, run *store.Run) bool {
	return run.Folded && run.FoldedIn <= th.Version
}

// A thread's stored snapshot is two reducer snapshots, compact JSON
// joined by a newline: the tail (the last TailMessages messages and the
// state, what a page paints first) and the whole thread.

// TailMessages is how many messages the tail snapshot keeps.
const TailMessages = 50

// splitSnapshot returns the tail and the whole snapshot of a stored one.
func splitSnapshot(b []byte) (tail, full []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, b
}

// joinSnapshot is the stored form of r's state.
func joinSnapshot(r *reducer.Reducer) []byte {
	full := r.Snapshot()
	if n := len(r.State().Messages); n > TailMessages {
		msgs, err := jsontree.Parse(r.AppendMessages(nil), jsontree.ParseOptions{})
		if arr, ok := msgs.(*jsontree.Array); err == nil && ok {
			arr.Elems = arr.Elems[len(arr.Elems)-TailMessages:]
			t := reducer.New(reducer.Options{ThreadID: r.State().ThreadID})
			t.SetMessages(arr)
			t.SetState(r.State().State)
			tail := t.Snapshot()
			out := make([]byte, 0, len(tail)+1+len(full))
			return append(append(append(out, tail...), '\n'), full...)
		}
	}
	return full // the whole thread is its own tail
}

// restore is a reducer holding the thread's snapshot.
func restore(th *store.Thread) *reducer.Reducer {
	r := reducer.New(reducer.Options{})
	if _, full := splitSnapshot(th.Snapshot); len(full) > 0 {
		if err := r.Load(full); err != nil {
			r.Reset()
		}
	}
	return r
}

// fold folds the thread's finished runs into its snapshot (retrying when
// another instance folded meanwhile) and compacts it.
func (s *Server) fold(ctx context.Context, tk string) {
	for attempt := 0; attempt < 8; attempt++ {
		th, err := s.store.Thread(ctx, tk)
		if err != nil {
			return
		}
		r := restore(th)
		var folded []string
		type kept struct {
			key   string
			bytes int64
		}
		var runs []kept
		stop := false
		for _, k := range th.Runs {
			run, frames, err := s.readRun(ctx, k)
			if err != nil {
				continue
			}
			if inSnapshot(th, run) || stop || !run.Done() {
				stop = stop || !run.Done()
				runs = append(runs, kept{k, run.Bytes})
				continue
			}
			if s.applyRun(ctx, r, run, frames) != nil {
				return
			}
			folded = append(folded, k)
			runs = append(runs, kept{k, run.Bytes})
		}
		if len(folded) == 0 {
			return
		}
		snap := joinSnapshot(r)
		// Compaction: the oldest folded runs go while the thread is over
		// its bound (their content lives on in the snapshot).
		total := int64(len(snap))
		for _, k := range runs {
			total += k.bytes
		}
		var drop []string
		isFolded := func(k string) bool {
			for _, f := range folded {
				if f == k {
					return true
				}
			}
			_, run, err := s.store.Read(ctx, k, 0, 0, 0)
			return err == nil && run.Folded
		}
		// The newest run stays: its clients may still be reading it.
		for _, k := range runs[:max(len(runs)-1, 0)] {
			if total <= s.cfg.MaxThreadBytes-s.cfg.MaxRunBytes || k.key == th.Active {
				break
			}
			if isFolded(k.key) {
				drop = append(drop, k.key)
				total -= k.bytes
			}
		}
		err = s.store.Fold(ctx, tk, th.Version, snap, folded, drop)
		if !errors.Is(err, store.ErrConflict) {
			if err != nil {
				s.logf("thread fold: %v", err)
			}
			return
		}
	}
}

// knownMessages are the ids of the messages the thread has (folded or in
// runs not folded yet).
func (s *Server) knownMessages(ctx context.Context, th *store.Thread) (map[string]bool, error) {
	r, _, err := s.view(ctx, th)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, m := range r.State().Messages {
		known[m.ID] = true
	}
	return known, nil
}

// view is the thread as it stands: the snapshot, the finished runs not
// folded yet, and the input of the active run (returned).
func (s *Server) view(ctx context.Context, th *store.Thread) (*reducer.Reducer, *store.Run, error) {
	r := restore(th)
	var active *store.Run
	for _, k := range th.Runs {
		_, run, err := s.store.Read(ctx, k, 0, 0, 0)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if inSnapshot(th, run) {
			continue
		}
		if !run.Done() {
			in, err := s.store.Input(ctx, k)
			if err != nil {
				return nil, nil, err
			}
			applyInput(r, in)
			active = run
			break
		}
		run, frames, err := s.readRun(ctx, k)
		if err == nil {
			err = s.applyRun(ctx, r, run, frames)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return r, active, nil
}

// getThread answers GET /threads/{threadId}: as JSON (default) or, with
// Accept: text/event-stream, as MESSAGES_SNAPSHOT and STATE_SNAPSHOT
// frames followed by the active run's frames, live.
func (s *Server) getThread(w http.ResponseWriter, r *http.Request) {
	sse := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	if sse {
		if id := r.Header.Get("Last-Event-ID"); id != "" {
			if !s.acquire(w) {
				return
			}
			defer s.release()
			s.resume(w, r, id)
			return
		}
	}
	owner, ok := s.credential(w, r, false, "")
	if !ok {
		return
	}
	threadID := r.PathValue("thread")
	ctx := r.Context()
	loaded, ok := s.loadSlot(w, r) // until the answer is made (load.go)
	if !ok {
		return
	}
	defer loaded()
	tk := s.threadKey(owner, threadID)
	th, err := s.store.Thread(ctx, tk)
	if err == nil && th.Active != "" && s.reapIfLost(ctx, th.Active) {
		th, err = s.store.Thread(ctx, tk)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && th.Owner != owner:
		httpError(w, http.StatusNotFound, "thread_not_found", "no thread "+quoteShort(threadID)+" for this credential")
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		return
	}
	if !sse && r.URL.Query().Get("view") == "reducer" && th.Active == "" && !s.unfolded(ctx, th) {
		// The stored snapshot is the answer: no fold, no copy. With
		// tail=1, the last messages only, for a first paint.
		tail, full := splitSnapshot(th.Snapshot)
		if r.URL.Query().Get("tail") != "" {
			w.Header().Set(partialHeader, strconv.FormatBool(len(tail) != len(full)))
			full = tail
		}
		loaded()
		writeSnapshot(w, full, nil)
		return
	}
	red, active, err := s.view(ctx, th)
	if err != nil {
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		return
	}
	if sse {
		var pre []byte
		pre = sseFrame(pre, "", 0, red.AppendMessages([]byte(`{"type":"MESSAGES_SNAPSHOT","messages":`)))
		pre = append(pre[:len(pre)-2], "}\n\n"...)
		pre = sseFrame(pre, "", 0, jsontree.AppendJSON([]byte(`{"type":"STATE_SNAPSHOT","snapshot":`), red.State().State))
		pre = append(pre[:len(pre)-2], "}\n\n"...)
		loaded()
		if active == nil {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(pre)
			return
		}
		if !s.acquire(w) {
			return
		}
		defer s.release()
		w.Header().Set(runHeader, active.Key)
		s.stream(w, r, active.Key, 0, pre)
		return
	}
	if r.URL.Query().Get("view") == "reducer" {
		snap := red.Snapshot()
		if r.URL.Query().Get("tail") != "" {
			// A run ended and not folded yet, or one going on: the tail
			// is made now.
			tail, full := splitSnapshot(joinSnapshot(red))
			w.Header().Set(partialHeader, strconv.FormatBool(len(tail) != len(full)))
			snap = tail
		}
		loaded()
		writeSnapshot(w, snap, active)
		return
	}
	b := []byte(`{"threadId":`)
	b = jsontree.AppendString(b, threadID)
	b = append(b, `,"messages":`...)
	b = red.AppendMessages(b)
	b = append(b, `,"state":`...)
	b = jsontree.AppendJSON(b, red.State().State)
	b = append(b, `,"run":`...)
	if active != nil {
		rb, _ := json.Marshal(map[string]string{"lastEventId": eventID(active.Key, 0), "status": "running"})
		b = append(b, rb...)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, "}\n"...)
	loaded()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(b)
}

// writeSnapshot answers the reducer view: the reducer's snapshot as the
// body (what reducer.Restore and the web module's restore() take), the
// cursor of the run going on in X-Agui-Last-Event-ID.
func writeSnapshot(w http.ResponseWriter, snap []byte, active *store.Run) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if active != nil {
		h.Set(lastEventIDHeader, eventID(active.Key, 0))
	}
	if len(snap) == 0 {
		snap = reducer.New(reducer.Options{}).Snapshot()
	}
	// The length up front: one write of the stored bytes, not chunks, and
	// a client can read the body into one buffer of its size.
	h.Set("Content-Length", strconv.Itoa(len(snap)))
	w.Write(snap)
}

// deleteThread answers DELETE /threads/{threadId}.
func (s *Server) deleteThread(w http.ResponseWriter, r *http.Request) {
	owner, ok := s.credential(w, r, false, "")
	if !ok {
		return
	}
	threadID := r.PathValue("thread")
	tk := s.threadKey(owner, threadID)
	th, err := s.store.Thread(r.Context(), tk)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && th.Owner != owner:
		httpError(w, http.StatusNotFound, "thread_not_found", "no thread "+quoteShort(threadID)+" for this credential")
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		return
	case th.Active != "" && !s.reapIfLost(r.Context(), th.Active):
		httpError(w, http.StatusConflict, "run_in_progress", "the thread has a run going on")
		return
	}
	if err := s.store.Delete(r.Context(), tk); err != nil && !errors.Is(err, store.ErrNotFound) {
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// quoteShort quotes an id for a message, cut to 64 bytes.
func quoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}
