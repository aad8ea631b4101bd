package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agui-reducer/agui/relay"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/memstore"
)

// config is what the flags set. Zero values are the defaults.
type config struct {
	// What is served.
	webDir   string   // served at /
	catalog  *catalog // recorded runs
	scenario string   // "auto" or a scenario name: the default when the page names none
	speed    float64  // delay multiplier: 1 paces like a model, 0 sends at once
	upstream *url.URL // when set, POST /agent is proxied there instead
	// upstreamDialect, when set, is the upstream's dialect: its answer is
	// translated to canonical AG-UI (translate.go).
	upstreamDialect string
	csp             string // Content-Security-Policy of HTML pages: "" is pagePolicy, "off" none
	logf            func(string, ...any)

	// Who may use it, and how much (security.go, cors.go).
	cors    corsPolicy // other origins allowed to use /agent (-cors)
	hosts   hostPolicy // Host names answered besides loopback and IPs (-allow-host)
	maxBody int64      // bytes of a POST /agent body (-max-body)
	maxRuns int        // runs at once, replayed or proxied (-max-runs)
	// upstreamHeaders are request headers the proxy forwards besides the
	// transport's own (-upstream-headers), e.g. Authorization.
	upstreamHeaders []string

	// Resuming (resume.go, runlog.go): how many runs and bytes of frames
	// are kept, and how long after a run ended (-resume-runs, -resume-bytes,
	// -resume-ttl); how long a run goes on once no connection streams it
	// (-resume-grace; 0 stops it at once).
	logRuns     int
	logBytes    int64
	logTTL      time.Duration
	resumeGrace time.Duration
	// dropAfter cuts every connection after this many frames (-drop-after
	// N); 0 never. With dropAfterMax > dropAfter (-drop-after N-M), each
	// connection draws its count from [dropAfter, dropAfterMax].
	dropAfter, dropAfterMax int

	// Threads (threads.go): the in-process relay's store (nil: memory),
	// and the raw -cors and -allow-host lists it checks requests with.
	store       store.Store
	corsOrigins []string
	allowHosts  []string

	// ctx ends the runs being produced when it is done (the server's
	// lifetime); nil is context.Background.
	ctx context.Context
	// now is the run log's clock (tests); nil is time.Now.
	now func() time.Time
	// done, if set, is called when a replay ends (tests watch it).
	done func(name string, sent int, err error)
	// beforeEvent, if set, is called before a replay produces its event i
	// (from 0); tests hold a run mid-way with it.
	beforeEvent func(i int)
}

type server struct {
	config
	proxy *httputil.ReverseProxy
	runs  *runLog
	ids   *idDeriver
	// relay: proxied runs are translated from the upstream's dialect and
	// logged like replayed ones (relay.go), their requests sent with the
	// headers in passHeaders (canonical names).
	relay       bool
	passHeaders map[string]bool
	handler     http.Handler
	running     sync.WaitGroup // the goroutines producing runs
	// threads is the in-process relay (threads.go): runs through it are
	// kept in threads.
	threads *relay.Server
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// wait returns when every run has stopped being produced (once ctx is done,
// soon).
func (s *server) wait() {
	if s.threads != nil {
		s.threads.Close()
	}
	s.running.Wait()
}

func newServer(cfg config) *server {
	if cfg.logf == nil {
		cfg.logf = func(string, ...any) {}
	}
	if cfg.scenario == "" {
		cfg.scenario = "auto"
	}
	if cfg.maxBody <= 0 {
		cfg.maxBody = defaultMaxBody
	}
	if cfg.maxRuns <= 0 {
		cfg.maxRuns = defaultMaxRuns
	}
	if cfg.logRuns <= 0 {
		cfg.logRuns = defaultLogRuns
	}
	if cfg.logBytes <= 0 {
		cfg.logBytes = defaultLogBytes
	}
	if cfg.logTTL <= 0 {
		cfg.logTTL = defaultLogTTL
	}
	if cfg.ctx == nil {
		cfg.ctx = context.Background()
	}
	s := &server{config: cfg, runs: newRunLog(cfg.logRuns, cfg.logBytes, cfg.logTTL, cfg.now), ids: newIDDeriver()}
	if cfg.upstream != nil {
		up := cfg.upstream
		pass := map[string]bool{}
		for _, h := range append(append([]string(nil), proxyHeaders...), cfg.upstreamHeaders...) {
			pass[http.CanonicalHeaderKey(h)] = true
		}
		s.proxy = &httputil.ReverseProxy{
			Rewrite: func(r *httputil.ProxyRequest) {
				r.Out.URL = &url.URL{Scheme: up.Scheme, Host: up.Host, Path: up.Path, RawQuery: up.RawQuery}
				r.Out.Host = up.Host
				filterProxyHeaders(r.Out.Header, pass)
			},
			FlushInterval: -1, // stream every chunk as it arrives
			ModifyResponse: func(resp *http.Response) error {
				if !pass["Cookie"] {
					resp.Header.Del("Set-Cookie") // cookies of the upstream are not this origin's
				}
				return dropUpstreamCORS(resp)
			},
		}
		s.passHeaders = pass
		s.relay = cfg.upstreamDialect != ""
	}
	mux := http.NewServeMux()
	agent := cfg.cors.withCORS("POST", cfg.upstreamHeaders, s.guardAgent(http.HandlerFunc(s.agent)))
	mux.Handle("POST /agent", agent)
	mux.Handle("OPTIONS /agent", agent)
	mux.HandleFunc("GET /agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST an AG-UI RunAgentInput (JSON) to /agent; the answer is a text/event-stream of AG-UI events")
	})
	scenarios := cfg.cors.withCORS("GET", nil, http.HandlerFunc(s.scenarios))
	mux.Handle("GET /scenarios", scenarios)
	mux.Handle("OPTIONS /scenarios", scenarios)
	csp := cfg.csp
	switch csp {
	case "":
		csp = pagePolicy
	case "off":
		csp = ""
	}
	st := cfg.store
	if st == nil {
		st = memstore.New()
	}
	if rs, err := s.newRelay(st); err != nil {
		s.logf("threads: %v (not served)", err)
	} else {
		s.threads = rs
		s.mountRelay(mux)
	}
	mux.Handle("GET /inspect", inspectPage())
	mux.Handle("GET /", staticHandler(cfg.webDir, csp))
	s.handler = cfg.hosts.checkHost(mux)
	return s
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

// httpError answers with a JSON error: {"error": message, "code": code},
// the code a stable token a client can branch on.
func httpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{msg, code})
	w.Write(append(b, '\n'))
}

func (s *server) agent(w http.ResponseWriter, r *http.Request) {
	if s.threads != nil && r.Header.Get(threadKeyHeader) != "" {
		s.serveThreads(w, r) // a turn of a kept thread (threads.go)
		return
	}
	if s.relay {
		s.relayAgent(w, r)
		return
	}
	if s.proxy != nil {
		s.proxy.ServeHTTP(w, r) // Last-Event-ID and the upstream's ids pass through
		return
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		s.resume(w, r, id)
		return
	}
	req, status, code, msg := s.readRequest(r)
	if status != 0 {
		httpError(w, status, code, msg)
		return
	}
	if isInternal(r.Context()) {
		s.produceTo(w, r, req) // the relay's upstream request: the relay logs the run (threads.go)
		return
	}
	run, rd := s.startRun(req.scenario, req.ids, req.threadID, req.runID)
	if run == nil {
		// Runs whose clients left go on for -resume-grace, and count.
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "too_many_runs",
			"the server is producing "+strconv.Itoa(s.maxRuns)+" runs already (-max-runs)")
		return
	}
	s.serveRun(w, r, run, rd)
}

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
	err := json.NewDecoder(r.Body).Decode(&in) // read and bounded by guardAgent
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
	}{Default: s.scenario, Proxy: s.proxy != nil, Scenarios: []item{}}
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
