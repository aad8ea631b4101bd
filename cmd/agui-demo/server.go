package main

import (
	"bytes"
	"cmp"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agui-reducer/agui/httpguard"
	"github.com/agui-reducer/agui/relay"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// Defaults of the flags that bound what clients can take.
const (
	defaultMaxBody  = 8 << 20          // bytes of one RunAgentInput
	defaultMaxRuns  = 32               // runs produced at once
	defaultLogRuns  = 64               // runs (threads) kept for resuming
	defaultLogBytes = 64 << 20         // bytes the store holds, all runs together
	defaultLogTTL   = 5 * time.Minute  // how long a finished run stays resumable
	defaultGrace    = 30 * time.Second // how long a run nobody reads goes on
)

// config is what the flags set. Zero values are the defaults.
type config struct {
	// What is served.
	webDir   string   // served at /
	catalog  *catalog // recorded runs
	scenario string   // "auto" or a scenario name: the default when the page names none
	speed    float64  // delay multiplier: 1 paces like a model, 0 sends at once
	upstream *url.URL // when set, runs are relayed from there instead
	// upstreamDialect, when set, is the upstream's dialect: the relay
	// translates its answer to canonical AG-UI.
	upstreamDialect string
	csp             string // Content-Security-Policy of HTML pages: "" is pagePolicy, "off" none
	logf            func(string, ...any)

	// Who may use it, and how much (package httpguard; the relay's
	// bounds).
	corsOrigins []string // other origins allowed to use /agent (-cors)
	allowHosts  []string // Host names answered besides loopback and IPs (-allow-host)
	maxBody     int64    // bytes of a POST /agent body (-max-body)
	maxRuns     int      // runs produced at once (-max-runs)
	// upstreamHeaders are request headers the relay passes to the
	// upstream besides the transport's own (-upstream-headers).
	upstreamHeaders []string

	// Resuming (threads.go): how many runs (threads) and bytes the relay's
	// store keeps, and how long after a run ended (-resume-runs,
	// -resume-bytes, -resume-ttl); how long a run goes on once no
	// connection streams it (-resume-grace; 0 stops it at once).
	logRuns     int
	logBytes    int64
	logTTL      time.Duration
	resumeGrace time.Duration
	// dropAfter cuts every connection after this many frames (-drop-after
	// N); 0 never. With dropAfterMax > dropAfter (-drop-after N-M), each
	// connection draws its count from [dropAfter, dropAfterMax].
	dropAfter, dropAfterMax int

	// store keeps the relay's threads and runs (nil: memory).
	store store.Store

	// ctx ends the runs being produced when it is done (the server's
	// lifetime); nil is context.Background.
	ctx context.Context
	// done, if set, is called when a replay ends (tests watch it).
	done func(name string, sent int, err error)
	// beforeEvent, if set, is called before a replay produces its event i
	// (from 0); tests hold a run mid-way with it.
	beforeEvent func(i int)
}

// server is the demo: its pages, and POST /agent served by the relay
// (threads.go) in front of the recorded agent or of -upstream.
type server struct {
	config
	ids     *idDeriver
	guard   *httpguard.Guard
	handler http.Handler
	// relay produces and keeps every run (threads.go).
	relay *relay.Server
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// wait returns when every run has stopped being produced (once ctx is done,
// soon).
func (s *server) wait() { s.relay.Close() }

func newServer(cfg config) (*server, error) {
	if cfg.logf == nil {
		cfg.logf = func(string, ...any) {}
	}
	if cfg.scenario == "" {
		cfg.scenario = "auto"
	}
	cfg.maxBody = cmp.Or(max(cfg.maxBody, 0), defaultMaxBody)
	cfg.maxRuns = cmp.Or(max(cfg.maxRuns, 0), defaultMaxRuns)
	cfg.logRuns = cmp.Or(max(cfg.logRuns, 0), defaultLogRuns)
	cfg.logBytes = cmp.Or(max(cfg.logBytes, 0), defaultLogBytes)
	cfg.logTTL = cmp.Or(max(cfg.logTTL, 0), defaultLogTTL)
	if cfg.ctx == nil {
		cfg.ctx = context.Background()
	}
	if cfg.store == nil {
		cfg.store = memstore.New()
	}
	s := &server{config: cfg, ids: newIDDeriver()}
	var err error
	if s.guard, err = newGuard(cfg); err != nil {
		return nil, err
	}
	if s.relay, err = s.newRelay(); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("POST /agent", s.guard.Origin(http.HandlerFunc(s.agent)))
	mux.Handle("OPTIONS /agent", s.guard.Origin(http.NotFoundHandler())) // a preflight, answered by the guard
	mux.HandleFunc("GET /agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST")
		httpguard.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST an AG-UI RunAgentInput (JSON) to /agent; the answer is a text/event-stream of AG-UI events")
	})
	scenarios := s.guard.Origin(http.HandlerFunc(s.scenarios))
	mux.Handle("GET /scenarios", scenarios)
	mux.Handle("OPTIONS /scenarios", scenarios)
	csp := cfg.csp
	switch csp {
	case "":
		csp = pagePolicy
	case "off":
		csp = ""
	}
	s.mountRelay(mux)
	mux.Handle("GET /inspect", inspectPage())
	mux.Handle("GET /", staticHandler(cfg.webDir, csp))
	s.handler = s.guard.Host(mux)
	return s, nil
}

// scenarioHeader names, in the answer to a new run of the recorded agent,
// the scenario it replays.
const scenarioHeader = "X-Agui-Scenario"

// newGuard checks the demo's own endpoints as the relay checks its own
// (package httpguard): Host first, then the origin.
func newGuard(cfg config) (*httpguard.Guard, error) {
	g := &httpguard.Guard{
		Methods:       "GET, POST, DELETE",
		AllowHeaders:  append([]string{"Content-Type", "Accept", "Last-Event-ID", "X-Agui-Thread-Key"}, cfg.upstreamHeaders...),
		ExposeHeaders: []string{scenarioHeader, "X-Agui-Thread-Key", "X-Agui-Run"},
		HostHint:      " (start agui-demo with -allow-host NAME to add it)",
		OriginHint:    " (start agui-demo with -cors ORIGIN to allow another)",
	}
	var err error
	if g.Hosts, err = httpguard.ParseHosts(cfg.allowHosts); err != nil {
		return nil, fmt.Errorf("-allow-host: %w", err)
	}
	if g.Origins, err = httpguard.ParseOrigins(cfg.corsOrigins); err != nil {
		return nil, fmt.Errorf("-cors: %w", err)
	}
	return g, nil
}

// runAgentInput is the part of an AG-UI RunAgentInput the server reads.
type runAgentInput struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ForwardedProps json.RawMessage `json:"forwardedProps"`
	Resume         []struct {
		InterruptID string          `json:"interruptId"`
		Status      string          `json:"status"`
		Payload     json.RawMessage `json:"payload"`
	} `json:"resume"`
}

// lastUserText is the text of the last user message (string content, or
// the text parts of InputContent[]).
func (in *runAgentInput) lastUserText() string {
	for i := len(in.Messages) - 1; i >= 0; i-- {
		m := in.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			var b strings.Builder
			for _, p := range parts {
				if p.Type == "text" {
					b.WriteString(p.Text)
					b.WriteByte(' ')
				}
			}
			return b.String()
		}
		return ""
	}
	return ""
}

func (in *runAgentInput) requestedScenario() string {
	var fp struct {
		Scenario string `json:"scenario"`
	}
	if json.Unmarshal(in.ForwardedProps, &fp) != nil {
		return ""
	}
	return fp.Scenario
}

// agent answers POST /agent: every run, resume and turn is the relay's
// (threads.go). A new run of the recorded agent is named first
// (X-Agui-Scenario), and an unknown scenario refused.
func (s *server) agent(w http.ResponseWriter, r *http.Request) {
	if isInternal(r.Context()) {
		req, status, code, msg := s.readRequest(r)
		if status != 0 {
			httpguard.Error(w, status, code, msg)
			return
		}
		s.produceTo(w, r, req) // the relay's upstream request
		return
	}
	if s.upstream == nil && r.Header.Get("Last-Event-ID") == "" {
		body, ok := httpguard.ReadJSON(w, r, s.maxBody, "an AG-UI RunAgentInput")
		if !ok {
			return
		}
		var in runAgentInput
		if json.Unmarshal(body, &in) == nil {
			sc, _, err := s.choose(&in, "")
			if err != nil {
				httpguard.Error(w, http.StatusBadRequest, "unknown_scenario", err.Error())
				return
			}
			w.Header().Set(scenarioHeader, sc.name)
		} // else the relay answers 400 bad_request
		r.Body = &onceBody{body}
		r.ContentLength = int64(len(body))
	}
	s.serveRelay(w, r)
}

// onceBody is a request body read once: it lets go of its bytes when read,
// so that a request streaming a long run does not keep them.
type onceBody struct{ b []byte }

func (r *onceBody) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func (r *onceBody) Close() error { r.b = nil; return nil }

// runRequest is what a replayed run keeps of its request: the scenario,
// the id mapping and the thread and run ids, all of bounded length, so that
// the request itself is not held while the run is produced and streamed.
type runRequest struct {
	scenario        *scenario
	ids             map[string]string
	threadID, runID string
}

// readRequest decodes the RunAgentInput of r and chooses its run; on
// failure it returns the HTTP status, code and message of the answer. The
// body is released: the connection streams the run for as long as it
// lasts, and keeps nothing of the request but the runRequest.
func (s *server) readRequest(r *http.Request) (req runRequest, status int, code, msg string) {
	var in runAgentInput
	err := json.NewDecoder(r.Body).Decode(&in) // read and bounded by the relay
	r.Body = http.NoBody
	if err != nil {
		return req, http.StatusBadRequest, "bad_request", "the body must be an AG-UI RunAgentInput (JSON): " + err.Error()
	}
	req.threadID, req.runID = s.ids.bound("thread", in.ThreadID), s.ids.bound("run", in.RunID)
	if req.threadID == "" {
		req.threadID = "thread-" + randomID()
	}
	if req.runID == "" {
		req.runID = "run-" + randomID()
	}
	req.scenario, req.ids, err = s.choose(&in, req.runID)
	if err != nil {
		return req, http.StatusBadRequest, "unknown_scenario", err.Error()
	}
	return req, 0, "", ""
}

// choose picks the scenario for a request and the id mapping of its replay:
// every recorded id gets the (bounded) run id as suffix, so the ids of a
// second turn do not collide with the first; a resume turn refers to the
// ids of the run that raised the interrupt with that run's suffix.
func (s *server) choose(in *runAgentInput, runID string) (*scenario, map[string]string, error) {
	ids := map[string]string{}
	if len(in.Resume) > 0 {
		res := in.Resume[0]
		var p struct {
			Approved *bool `json:"approved"`
		}
		_ = json.Unmarshal(res.Payload, &p)
		approved := res.Status != "cancelled" && (p.Approved == nil || *p.Approved)
		if target, parent, prevRun := s.catalog.resumeTarget(res.InterruptID, approved); target != nil {
			for _, id := range target.ids {
				ids[id] = suffixed(id, runID)
			}
			prevRun = s.ids.bound("run", prevRun)
			for _, id := range parent.ids {
				if _, ok := ids[id]; ok {
					ids[id] = suffixed(id, prevRun)
				}
			}
			return target, ids, nil
		}
	}
	name := in.requestedScenario()
	if name == "" || name == "auto" {
		name = s.scenario
	}
	if name == "" || name == "auto" {
		name = s.catalog.pick(in.lastUserText())
	}
	sc := s.catalog.byName[name]
	if sc == nil {
		return nil, nil, fmt.Errorf("unknown scenario %s (GET /scenarios lists them)", quoteShort(name))
	}
	for _, id := range sc.ids {
		ids[id] = suffixed(id, runID)
	}
	return sc, ids, nil
}

func suffixed(id, run string) string {
	if run == "" {
		return id
	}
	return id + "-" + run
}

// render appends the event as sent: ids rewritten, threadId/runId set to
// the request's, and a timestamp (milliseconds) when the recording has
// none, so that reasoning durations reflect the pacing.
func (s *server) render(dst []byte, ev *value, ids map[string]string, threadID, runID string) []byte {
	out := ev.rewrite(ids)
	hasTS := false
	for i, m := range out.members {
		switch m.key {
		case "threadId":
			out.members[i].val = &value{kind: 's', text: threadID}
		case "runId":
			out.members[i].val = &value{kind: 's', text: runID}
		case "timestamp":
			hasTS = true
		}
	}
	dst = out.appendJSON(dst)
	if !hasTS {
		dst = dst[:len(dst)-1]
		dst = append(dst, `,"timestamp":`...)
		dst = strconv.AppendInt(dst, time.Now().UnixMilli(), 10)
		dst = append(dst, '}')
	}
	return dst
}

// delay is the pause before an event, at speed 1: tokens every 8–20 ms,
// a think before each message, a slow tool.
func (s *server) delay(ev *value) time.Duration {
	if s.speed <= 0 {
		return 0
	}
	var ms float64
	switch t := ev.get("type").str(); t {
	case "RUN_STARTED":
		ms = 0
	case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_CONTENT",
		"TOOL_CALL_ARGS", "TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_CHUNK", "TOOL_CALL_CHUNK":
		ms = 8 + rand.Float64()*12
	case "TOOL_CALL_RESULT":
		ms = 400
	case "TEXT_MESSAGE_START", "REASONING_START", "THINKING_START":
		ms = 250
	case "TOOL_CALL_START":
		ms = 150
	case "STATE_SNAPSHOT", "STATE_DELTA":
		ms = 250
	case "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA":
		ms = 350
	case "RUN_ERROR":
		ms = 300
	default:
		ms = 30
	}
	return time.Duration(ms * s.speed * float64(time.Millisecond))
}

// replay produces the events of the scenario, paced, rendered with the
// request's (bounded) thread and run ids and the id mapping of choose,
// into emit (whose argument is reused after it returns), until the end or
// until ctx is done (its error). It returns the events produced.
func (s *server) replay(ctx context.Context, sc *scenario, ids map[string]string, threadID, runID string, emit func([]byte)) (int, error) {
	produced := 0
	var buf []byte
	for i, ev := range sc.events {
		if s.beforeEvent != nil {
			s.beforeEvent(i)
		}
		if d := s.delay(ev); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return produced, err
		}
		buf = s.render(buf[:0], ev, ids, threadID, runID)
		emit(buf)
		produced++
	}
	return produced, nil
}

// scenarios lists the replayable scenarios for the page's picker.
func (s *server) scenarios(w http.ResponseWriter, r *http.Request) {
	type item struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Events      int    `json:"events"`
	}
	out := struct {
		Default   string `json:"default"`
		Proxy     bool   `json:"proxy"`
		Scenarios []item `json:"scenarios"`
	}{Default: s.scenario, Proxy: s.upstream != nil, Scenarios: []item{}}
	for _, name := range s.catalog.order {
		it := item{Name: name, Events: len(s.catalog.byName[name].events)}
		if inf := info(name); inf != nil {
			it.Description = inf.description
		}
		out.Scenarios = append(out.Scenarios, it)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}

func randomID() string {
	var b [6]byte
	crand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b[:])
}
