package relay

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/httpguard"
	"github.com/agui-reducer/agui/relay/store"
)

// Server is the relay: an http.Handler serving POST /agent (new runs and
// resumes), GET and DELETE /threads/{threadId}.
type Server struct {
	cfg     Config
	store   store.Store // cfg.Store, measured
	m       *metrics
	log     *slog.Logger
	secret  []byte
	users   *principals // with Config.AuthJWKS (principal.go)
	guard   *httpguard.Guard
	pass    []string // request headers passed upstream
	handler http.Handler

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // producers and the sweeper

	producing atomic.Int64  // runs this instance produces
	conns     chan struct{} // streams this instance serves
	loads     chan struct{} // thread answers this instance builds (load.go)
	local     sync.Map      // run key → *producer, the runs this instance produces
	// unstored holds the ends of runs this instance ended that the store
	// did not take (run key → *unstored): streams send them, without an id.
	unstored sync.Map

	mu         sync.Mutex // closing, and the producers' wg.Add
	closing    bool
	drainCtx   context.Context // done when the server drains (Shutdown)
	drain      context.CancelFunc
	sweeping   atomic.Bool  // a sweep is going on
	sweepBound atomic.Int64 // the store bound of the sweep asked for (0: none)
	finished   atomic.Int64 // runs ended since the last sweep of the thread count
}

// unstored is the end of a run that the store did not take.
type unstored struct {
	frame []byte
	at    time.Time
}

// unstoredEnd is the end of run key the store did not take, if any.
func (s *Server) unstoredEnd(key string) ([]byte, bool) {
	if v, ok := s.unstored.Load(key); ok {
		return v.(*unstored).frame, true
	}
	return nil, false
}

// New returns a relay; Close ends its runs.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("relay: no store")
	}
	if cfg.Upstream == nil || (cfg.Upstream.Scheme != "http" && cfg.Upstream.Scheme != "https") || cfg.Upstream.Host == "" {
		return nil, errors.New("relay: the upstream must be an http(s) URL")
	}
	if cfg.UpstreamDialect != "" && !slices.Contains(dialect.Names(), cfg.UpstreamDialect) {
		return nil, errors.New("relay: unknown upstream dialect " + strconv.Quote(cfg.UpstreamDialect))
	}
	cfg.defaults()
	s := &Server{cfg: cfg, conns: make(chan struct{}, cfg.MaxConns),
		loads: make(chan struct{}, cfg.MaxLoads), log: cfg.Logger}
	s.drainCtx, s.drain = context.WithCancel(context.Background())
	s.m = newMetrics(s)
	s.store = measuredStore{cfg.Store, s.m}
	var err error
	if s.guard, err = newGuard(cfg); err != nil {
		return nil, err
	}
	extra, err := httpguard.ParseHeaderNames(cfg.UpstreamHeaders)
	if err != nil {
		return nil, errors.New("relay: upstream headers: " + err.Error())
	}
	s.pass = append([]string{"Content-Type", "Accept", "Accept-Language", "User-Agent"}, extra...)
	parent := cfg.Context
	if parent == nil {
		parent = context.Background()
	}
	s.ctx, s.cancel = context.WithCancel(parent)
	if s.cfg.Instance == "" {
		var b [6]byte
		rand.Read(b[:])
		s.cfg.Instance = hex.EncodeToString(b[:])
	}
	if st, ok := cfg.Store.(interface{ SetRetry(time.Duration) }); ok {
		st.SetRetry(s.cfg.StoreTimeout) // a store that retries writes on its own (redisstore)
	}
	if s.users, err = newPrincipals(s.ctx, s.cfg); err != nil {
		s.cancel()
		return nil, err
	}
	s.secret = cfg.Secret
	if s.secret == nil {
		cand := make([]byte, 32)
		rand.Read(cand)
		ctx, cancel := context.WithTimeout(s.ctx, cfg.StoreTimeout)
		s.secret, err = s.store.Secret(ctx, cand)
		cancel()
		if err != nil {
			return nil, errors.New("relay: reading the secret from the store: " + err.Error())
		}
	}

	mux := http.NewServeMux()
	mux.HandleFunc("POST /agent", s.agent)
	mux.HandleFunc("GET /threads/{thread}", s.getThread)
	mux.HandleFunc("DELETE /threads/{thread}", s.deleteThread)
	mux.HandleFunc("GET /healthz", s.health)
	mux.HandleFunc("GET /livez", s.livez)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.HandleFunc("/", s.fallback)
	if !cfg.NoMetrics {
		mux.Handle("GET /metrics", s.MetricsHandler())
	}
	s.handler = s.observe(s.guard.Handler(mux))

	if cfg.SweepEvery > 0 {
		s.wg.Add(1)
		go s.sweeper()
	}
	return s, nil
}

// fallback answers what no endpoint does: 405 on an endpoint's path, an
// OPTIONS request (a preflight is the guard's), else 404; as JSON errors.
func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	allow := ""
	switch p := r.URL.Path; {
	case r.Method == http.MethodOptions:
		return
	case strings.EqualFold(r.URL.EscapedPath(), "/threads/%2F"):
		// The thread "/": the mux takes its one escaped segment for a
		// trailing slash.
		r.SetPathValue("thread", "/")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			s.getThread(w, r)
			return
		case http.MethodDelete:
			s.deleteThread(w, r)
			return
		}
		allow = "GET, DELETE"
	case p == "/agent":
		allow = "POST"
	case p == "/healthz" || p == "/livez" || p == "/readyz" || p == "/metrics" && !s.cfg.NoMetrics:
		allow = "GET"
	case strings.HasPrefix(p, "/threads/") && len(p) > len("/threads/") && !strings.Contains(p[len("/threads/"):], "/"):
		allow = "GET, DELETE"
	}
	if allow != "" {
		w.Header().Set("Allow", allow)
		httpError(w, http.StatusMethodNotAllowed, "method_not_allowed", "use "+allow)
		return
	}
	httpError(w, http.StatusNotFound, "not_found", "no such endpoint: "+quoteShort(r.URL.Path)+" (POST /agent, GET or DELETE /threads/{threadId}, GET /healthz, /livez, /readyz)")
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close ends the runs this instance produces (each with a RUN_ERROR,
// code relay_shutdown) and waits for them.
func (s *Server) Close() error { return s.Shutdown(context.Background()) }

// Shutdown drains the relay: new runs are refused (503 shutting_down) and
// /readyz fails; the runs this instance produces end with a RUN_ERROR
// (code relay_shutdown), stored and sent to their clients, whose streams
// then end; streams of runs other instances produce end at once (their
// clients resume elsewhere). It returns when the runs have ended, or with
// ctx's error when ctx ends first. The HTTP server's Shutdown (which stops
// accepting connections and waits for the streams) goes alongside:
// httpguard.ServeDrain calls both.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		s.drain()
	}
	s.mu.Unlock()
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// startProducer counts a producer in (false once the server drains).
func (s *Server) startProducer() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.wg.Add(1)
	return true
}

// Instance is this relay's instance name.
func (s *Server) Instance() string { return s.cfg.Instance }

func (s *Server) sweeper() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.reapLost()
			s.sweep()
			s.unstored.Range(func(k, v any) bool {
				if time.Since(v.(*unstored).at) > s.cfg.RunTTL {
					s.unstored.Delete(k)
				}
				return true
			})
		}
	}
}

// reapLost ends the runs whose producer is gone, read by a client or not,
// so that their threads can be folded, evicted and run again.
func (s *Server) reapLost() {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.StoreTimeout)
	defer cancel()
	keys, err := s.store.Running(ctx, 1000)
	if err != nil {
		s.logf("sweep: %v", err)
		return
	}
	for _, k := range keys {
		s.reapIfLost(ctx, k)
	}
}

func (s *Server) limits() store.Limits {
	lim := store.Limits{MaxBytes: s.cfg.MaxStoreBytes, MaxThreads: s.cfg.MaxThreads, RunTTL: s.cfg.RunTTL}
	if s.cfg.Retention > 0 {
		lim.Retention = s.cfg.Retention
	}
	return lim
}

func (s *Server) sweep() { s.sweepTo(s.cfg.MaxStoreBytes) }

// sweepTo applies the limits with maxBytes as the store's bound. One
// sweep runs at a time: asked for meanwhile, the one going on sweeps once
// more when it is done (to the lowest bound asked for).
func (s *Server) sweepTo(maxBytes int64) {
	for {
		if b := s.sweepBound.Load(); b == 0 || maxBytes < b {
			if !s.sweepBound.CompareAndSwap(b, maxBytes) {
				continue
			}
		}
		break
	}
	if !s.sweeping.CompareAndSwap(false, true) {
		return
	}
	for {
		s.finished.Store(0)
		s.sweepOnce(s.sweepBound.Swap(0))
		s.sweeping.Store(false)
		// Asked for while it swept: sweep again, unless another took over.
		if s.sweepBound.Load() == 0 || !s.sweeping.CompareAndSwap(false, true) {
			return
		}
	}
}

func (s *Server) sweepOnce(maxBytes int64) {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.StoreTimeout)
	defer cancel()
	lim := s.limits()
	lim.MaxBytes = maxBytes
	sw, err := s.store.Sweep(ctx, time.Now(), lim)
	if err != nil {
		s.logf("sweep: %v", err)
	} else if sw.Threads+sw.Runs > 0 {
		s.logf("sweep: %d threads, %d runs, %d bytes dropped", sw.Threads, sw.Runs, sw.Bytes)
	}
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	used, err := s.store.Usage(ctx)
	if err != nil {
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", err.Error())
		return
	}
	writeJSON(w, map[string]any{"instance": s.cfg.Instance, "version": s.cfg.Version, "producing": s.producing.Load(), "storeBytes": used})
}

// livez answers while the process serves HTTP: a liveness probe, which
// a store outage does not fail (restarting the relay would not help).
func (s *Server) livez(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"status": "ok", "version": s.cfg.Version})
}

// readyz answers whether the relay takes runs: not draining, and the store
// reachable and taking writes (store.Checker, else a read).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.draining() {
		httpError(w, http.StatusServiceUnavailable, "shutting_down", "the relay is shutting down")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	var err error
	if c, ok := s.store.(store.Checker); ok {
		err = c.Check(ctx)
	} else {
		_, err = s.store.Usage(ctx)
	}
	if err != nil {
		httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store does not take writes: "+err.Error())
		return
	}
	writeJSON(w, map[string]any{"status": "ready", "instance": s.cfg.Instance, "producing": s.producing.Load()})
}

func (s *Server) draining() bool {
	return s.drainCtx.Err() != nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// acquire takes a stream slot, or answers 503.
func (s *Server) acquire(w http.ResponseWriter) bool {
	select {
	case s.conns <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "1")
		s.m.runsRefused.WithLabelValues("too_many_streams").Inc()
		httpError(w, http.StatusServiceUnavailable, "too_many_streams", "the relay serves "+strconv.Itoa(s.cfg.MaxConns)+" streams already")
		return false
	}
}

func (s *Server) release() { <-s.conns }

// runAgentInput is what the relay reads of a RunAgentInput.
type runAgentInput struct {
	ThreadID string            `json:"threadId"`
	Messages []json.RawMessage `json:"messages"`
}

// agent answers POST /agent: a resume (Last-Event-ID) or a new run.
func (s *Server) agent(w http.ResponseWriter, r *http.Request) {
	body, ok := httpguard.ReadJSON(w, r, s.cfg.MaxBody, "an AG-UI RunAgentInput")
	if !ok {
		return
	}
	if !s.acquire(w) {
		return
	}
	defer s.release()
	if s.draining() {
		s.m.runsRefused.WithLabelValues("shutting_down").Inc()
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "shutting_down", "the relay is shutting down")
		return
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		s.resume(w, r, id)
		return
	}
	runKey := randomKey(runKeyLen)
	keyless := s.keyless(r)
	owner, ok := s.credential(w, r, true, runKey)
	if !ok {
		return
	}
	var in runAgentInput
	if err := json.Unmarshal(body, &in); err != nil {
		httpError(w, http.StatusBadRequest, "bad_request", "the body must be an AG-UI RunAgentInput (JSON): "+err.Error())
		return
	}
	threadID := in.ThreadID
	if threadID == "" {
		if !keyless {
			httpError(w, http.StatusBadRequest, "thread_id_required", "the RunAgentInput needs a threadId")
			return
		}
		threadID = runKey // keyless.go
	}
	// A producer's slot, taken now and given back unless the run starts.
	if s.producing.Add(1) > int64(s.cfg.MaxRuns) {
		s.producing.Add(-1)
		s.m.runsRefused.WithLabelValues("too_many_runs").Inc()
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "too_many_runs", "the relay produces "+strconv.Itoa(s.cfg.MaxRuns)+" runs already (-max-runs)")
		return
	}
	started := false
	defer func() {
		if !started {
			s.producing.Add(-1)
		}
	}()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
	defer cancel()
	tk := s.threadKey(owner, threadID)
	input, status, code, msg := s.prepare(ctx, w, tk, in.Messages)
	if status != 0 {
		httpError(w, status, code, msg)
		return
	}
	if msg := badThreadID(threadID); msg != "" {
		httpError(w, http.StatusBadRequest, "bad_thread_id", msg)
		return
	}
	now := time.Now()
	run := &store.Run{Key: runKey, Thread: tk, Owner: owner, Producer: s.cfg.Instance,
		Started: now, Input: input, Lease: now.Add(s.cfg.Lease), Readers: now}
	if err := s.store.Create(ctx, run); err != nil {
		switch {
		case errors.Is(err, store.ErrBusy):
			httpError(w, http.StatusConflict, "run_in_progress", "the thread has a run going on; resume it (GET /threads/{threadId})")
		default:
			s.m.runsRefused.WithLabelValues("store_unavailable").Inc()
			httpError(w, http.StatusServiceUnavailable, "store_unavailable", "the store failed: "+err.Error())
		}
		return
	}
	hdr := http.Header{}
	for _, k := range s.pass {
		if v := r.Header.Values(k); len(v) > 0 {
			hdr[k] = v
		}
	}
	if !s.startProducer() {
		// Draining since the slot was taken: the run ends at once.
		fctx, fcancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
		s.store.Finish(fctx, run.Key, 1, runError(CodeShutdown, "the relay producing the run stopped"), store.OutcomeError)
		fcancel()
		httpError(w, http.StatusServiceUnavailable, "shutting_down", "the relay is shutting down")
		return
	}
	started = true
	s.m.runsStarted.Inc()
	p := s.newProducer(run)
	go p.produce(body, hdr)
	w.Header().Set(runHeader, run.Key)
	if in.ThreadID == "" {
		w.Header().Set(threadIDHeader, threadID)
	}
	s.stream(w, r, run.Key, 0, nil)
}

// MaxThreadIDPath bounds a threadId's URL form (percent-encoded as
// encodeURIComponent makes it, 3 bytes for a byte outside A–Z a–z 0–9
// -_.!~*'()): GET /threads/{threadId} must carry it in its request line,
// within the server's 64 KiB of headers.
const MaxThreadIDPath = 48 << 10

// badThreadID says why a run cannot make a thread of id ("" if it can):
// every thread must load back through GET /threads/{threadId}, and "." and
// ".." are path segments a URL normalises away, however they are encoded.
func badThreadID(id string) string {
	switch {
	case id == "." || id == "..":
		return "the threadId " + strconv.Quote(id) + " cannot be a URL path segment (GET /threads/{threadId} could not load it)"
	case len(id) > MaxThreadIDPath/3 && pathLen(id) > MaxThreadIDPath:
		return "the threadId takes " + strconv.Itoa(pathLen(id)) + " bytes in a URL, more than " + strconv.Itoa(MaxThreadIDPath) + " (GET /threads/{threadId} could not load it)"
	}
	return ""
}

// pathLen is the length of id percent-encoded as encodeURIComponent does.
func pathLen(id string) int {
	n := 0
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			n++
		} else {
			n += 3
		}
	}
	return n
}

// prepare checks the thread before a new run (reaping a lost run, folding
// what is not folded, bounds) and returns the run's input: the request's
// messages the thread does not have. A status is a refusal.
func (s *Server) prepare(ctx context.Context, w http.ResponseWriter, tk string, msgs []json.RawMessage) (input []byte, status int, code, msg string) {
	if used, err := s.store.Usage(ctx); err == nil && used > s.cfg.MaxStoreBytes {
		// Down to 90%, so that the next runs do not sweep again.
		s.sweepTo(s.cfg.MaxStoreBytes / 10 * 9)
	}
	th, err := s.store.Thread(ctx, tk)
	switch {
	case errors.Is(err, store.ErrNotFound):
		th = &store.Thread{Key: tk}
	case err != nil:
		return nil, http.StatusServiceUnavailable, "store_unavailable", "the store failed: " + err.Error()
	}
	if th.Active != "" {
		if !s.reapIfLost(ctx, th.Active) {
			w.Header().Set(runHeader, th.Active)
			return nil, http.StatusConflict, "run_in_progress", "the thread has a run going on; resume it (GET /threads/{threadId})"
		}
	}
	if th.Active != "" || s.unfolded(ctx, th) {
		s.fold(ctx, tk)
		if th, err = s.store.Thread(ctx, tk); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, http.StatusServiceUnavailable, "store_unavailable", "the store failed: " + err.Error()
		} else if err != nil {
			th = &store.Thread{Key: tk}
		}
	}
	if th.Bytes >= s.cfg.MaxThreadBytes {
		return nil, http.StatusRequestEntityTooLarge, "thread_full",
			"the thread holds " + strconv.FormatInt(th.Bytes, 10) + " bytes, the most a thread may (-max-thread-bytes); start a new thread"
	}
	known, err := s.knownMessages(ctx, th)
	if err != nil {
		return nil, http.StatusServiceUnavailable, "store_unavailable", "the store failed: " + err.Error()
	}
	input = newMessages(msgs, known)
	if store.RunBytes(input) > s.cfg.MaxRunBytes {
		return nil, http.StatusRequestEntityTooLarge, "too_large", "the new messages are larger than a run may be (-max-run-bytes)"
	}
	return input, 0, "", ""
}

// newMessages is the JSON array of the messages whose ids are not known
// (a message without an id counts when it is the last).
func newMessages(msgs []json.RawMessage, known map[string]bool) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for i, m := range msgs {
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(m, &head) != nil {
			continue
		}
		if head.ID == "" && i != len(msgs)-1 || head.ID != "" && known[head.ID] {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		json.Compact(&b, m)
		n++
	}
	if n == 0 {
		return nil
	}
	b.WriteByte(']')
	return b.Bytes()
}
