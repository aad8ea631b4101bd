package relay

import "net/http"

// Keyless runs (Config.KeylessRuns). A client such as @ag-ui/client's
// HttpAgent keeps no thread key: it POSTs a RunAgentInput, and resumes a
// cut stream with Last-Event-ID alone. For such a client each run is a
// thread of its own, whose credential is derived from the run's key:
//
//	key = H("run", run key)   handed out as X-Agui-Thread-Key
//
// so the run's event id ("<run key>:<seq>", 96 random bits) is all a
// resume needs, and it reads that run only: a run started with a key, or
// another keyless run, derives another owner. The key is handed out with
// the first answer (not with a resume), so a client that keeps it can go
// on with the thread as any other.
//
// The threadId may be left out: the relay then names the thread after the
// run (its id is the run's key) and hands the name out as X-Agui-Thread-Id
// with the thread key, so that the thread can be loaded (GET /threads/{id})
// and continued (a run with that threadId and the key) like any other. The
// body goes to the agent as it came: the agent's events say whatever
// threadId the agent gives them.

// keyless reports whether r is served as a keyless request: the relay
// takes keyless runs, has no auth header, and r carries no thread key.
func (s *Server) keyless(r *http.Request) bool {
	return s.cfg.KeylessRuns && s.cfg.AuthHeader == "" && r.Header.Get(threadKeyHeader) == ""
}

// runOwnKey is the thread key of the keyless run runKey.
func (s *Server) runOwnKey(runKey string) string { return s.hash("run", runKey) }

// attach counts a stream of the run on this instance; the returned func
// detaches it. With a zero Grace, the last stream leaving stops the run
// (relay_run_abandoned) at once, rather than at the next heartbeat.
func (p *producer) attach() (detach func()) {
	p.readers.Add(1)
	return func() {
		if p.readers.Add(-1) == 0 && p.s.cfg.Grace == 0 {
			p.cancel(errAbandoned)
		}
	}
}
