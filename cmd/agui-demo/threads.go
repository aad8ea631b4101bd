package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agui-reducer/agui/relay"
)

// Runs and threads (docs/relay.md, docs/resume.md): the server runs
// package relay in-process, and every POST /agent is the relay's. Its
// upstream is the server's own recorded agent (produceTo, reached through
// handlerTransport without a socket), or -upstream (translated from
// -upstream-dialect by the relay). So every run is produced apart from its
// connections into the relay's store, and streamed from there with an SSE
// id on every frame: a client resumes with Last-Event-ID, a run goes on
// for -resume-grace while no client reads it, and a cut upstream answer
// is resumed by the relay.
//
// A POST /agent without X-Agui-Thread-Key (any AG-UI client) is a run of
// its own: the relay keeps it as a thread of one run, resumable by its
// event ids alone (relay.Config.KeylessRuns). One that carries the key
// (the demo page) is a turn of a kept thread. The relay's API is also
// mounted under /relay/ — POST /relay/agent, GET and DELETE
// /relay/threads/{threadId} — and GET/DELETE /threads/{threadId} answer
// as under /relay/.
//
// The store is -store: memory: by default (nothing survives a restart),
// bolt:PATH to keep threads across restarts, redis://HOST:PORT/DB. Its
// bounds are the flags': -resume-bytes bounds the store, -resume-runs the
// threads it keeps (one per keyless run), -resume-ttl how long a finished
// run stays resumable, -resume-grace how long a run nobody reads goes on.

// relayPrefix is where the relay's API is mounted.
const relayPrefix = "/relay"

// internalUpstream is the URL the relay posts its runs to: never dialled,
// the transport calls the server's agent handler.
var internalUpstream = &url.URL{Scheme: "http", Host: "agui-demo.internal", Path: "/agent"}

// internalKey marks a request the relay makes to the server's own agent:
// -drop-after does not cut it (the relay's clients are cut instead).
type internalKey struct{}

func isInternal(ctx context.Context) bool { return ctx.Value(internalKey{}) != nil }

// newRelay starts the in-process relay.
func (s *server) newRelay() (*relay.Server, error) {
	runBytes := min(s.logBytes/16, relay.DefaultMaxRunBytes)
	grace := s.resumeGrace
	if grace == 0 {
		grace = -1 // the relay's zero is its default; the demo's is "stop at once"
	}
	cfg := relay.Config{
		Store:          s.store,
		Upstream:       internalUpstream,
		Client:         &http.Client{Transport: handlerTransport{http.HandlerFunc(s.agent)}},
		KeylessRuns:    true,
		CORS:           s.corsOrigins,
		AllowHosts:     s.allowHosts,
		ExposeHeaders:  []string{scenarioHeader},
		MaxBody:        s.maxBody,
		MaxRuns:        s.maxRuns,
		MaxEventBytes:  int(min(runBytes, relay.DefaultMaxEventBytes)),
		MaxRunBytes:    runBytes,
		MaxThreadBytes: max(s.logBytes/4, 2*runBytes),
		MaxStoreBytes:  s.logBytes,
		MaxThreads:     s.logRuns,
		RunTTL:         s.logTTL,
		Grace:          grace,
		Context:        s.ctx,
		Logf:           func(f string, a ...any) { s.logf("relay: "+f, a...) },
	}
	if s.upstream != nil {
		cfg.Upstream, cfg.Client = s.upstream, nil
		cfg.UpstreamDialect = s.upstreamDialect
		cfg.UpstreamHeaders = s.upstreamHeaders
	}
	return relay.New(cfg)
}

// produceTo answers the relay's upstream request with the recorded run,
// produced straight into the response: the relay keeps the run (its
// frames, ids, resumes).
func (s *server) produceTo(w http.ResponseWriter, r *http.Request, req runRequest) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set(scenarioHeader, req.scenario.name)
	w.WriteHeader(http.StatusOK)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	var out []byte
	produced, err := s.replay(ctx, req.scenario, req.ids, req.threadID, req.runID, func(frame []byte) {
		out = append(append(append(out[:0], "data: "...), frame...), "\n\n"...)
		if _, err := w.Write(out); err != nil {
			cancel() // the relay went away
		}
	})
	if err != nil {
		s.logf("agent: run %s, scenario %s (for the relay): stopped after %d of %d events", req.runID, req.scenario.name, produced, len(req.scenario.events))
	}
	if s.done != nil {
		s.done(req.scenario.name, produced, err)
	}
}

// mountRelay adds the relay's routes to mux.
func (s *server) mountRelay(mux *http.ServeMux) {
	h := http.StripPrefix(relayPrefix, http.HandlerFunc(s.serveRelay))
	for _, m := range []string{"GET", "POST", "DELETE", "OPTIONS"} {
		mux.Handle(m+" "+relayPrefix+"/", h)
	}
	for _, m := range []string{"GET", "DELETE", "OPTIONS"} {
		mux.HandleFunc(m+" /threads/{thread}", s.serveRelay)
	}
}

// serveRelay serves a request with the relay; -drop-after cuts its
// streams.
func (s *server) serveRelay(w http.ResponseWriter, r *http.Request) {
	if s.dropAfter <= 0 {
		s.relay.ServeHTTP(w, r)
		return
	}
	cut := s.dropAfter
	if s.dropAfterMax > cut {
		cut += rand.IntN(s.dropAfterMax - cut + 1)
	}
	dw := &dropWriter{ResponseWriter: w, left: cut}
	s.relay.ServeHTTP(dw, r)
}

// dropLinger is how long a connection -drop-after cuts stays open after its
// last frame.
const dropLinger = 100 * time.Millisecond

// dropWriter passes a relay's answer on until left frames with an id have
// been written, then cuts the connection mid-body, as a network cut would
// (-drop-after). A browser drops the chunks a body stream still queues
// when the stream errors: a cut right after a burst of frames (the backlog
// a resumed connection starts with) would lose them all, every time. The
// connection lingers a moment first so that the client reads what was
// sent, as on a real network, where a cut rarely follows a write that
// closely.
type dropWriter struct {
	http.ResponseWriter
	left int
}

func (d *dropWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

func (d *dropWriter) Write(b []byte) (int, error) {
	if !strings.HasPrefix(d.Header().Get("Content-Type"), "text/event-stream") {
		return d.ResponseWriter.Write(b)
	}
	n := 0
	for len(b) > 0 {
		end := bytes.Index(b, []byte("\n\n"))
		if end < 0 {
			end = len(b)
		} else {
			end += 2
		}
		frame := b[:end]
		if bytes.HasPrefix(frame, []byte("id:")) {
			if d.left == 0 {
				http.NewResponseController(d.ResponseWriter).Flush()
				time.Sleep(dropLinger)
				panic(http.ErrAbortHandler)
			}
			d.left--
		}
		m, err := d.ResponseWriter.Write(frame)
		n += m
		if err != nil {
			return n, err
		}
		b = b[end:]
	}
	return n, nil
}

// handlerTransport is an http.RoundTripper that serves each request with
// a handler in-process: the response streams as the handler writes it.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(context.WithValue(req.Context(), internalKey{}, true))
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan int, 1)}
	in := req.Clone(ctx)
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:0"
	if in.Body == nil {
		in.Body = http.NoBody
	}
	go func() {
		defer func() {
			if v := recover(); v != nil && v != http.ErrAbortHandler {
				pw.CloseWithError(errors.New("agent handler panicked"))
			}
			w.writeHeader(http.StatusOK)
			pw.Close()
		}()
		t.h.ServeHTTP(w, in)
	}()
	select {
	case status := <-w.ready:
		return &http.Response{
			Status: http.StatusText(status), StatusCode: status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: w.header.Clone(), Body: cancelBody{pr, cancel}, ContentLength: -1, Request: req,
		}, nil
	case <-ctx.Done():
		cancel()
		pr.Close()
		return nil, ctx.Err()
	}
}

// cancelBody ends the handler's request when the body is closed.
type cancelBody struct {
	*io.PipeReader
	cancel context.CancelFunc
}

func (b cancelBody) Close() error {
	b.cancel()
	return b.PipeReader.Close()
}

// pipeWriter is the handler's ResponseWriter: headers once, the body into
// the pipe (each Write reaches the reader before it returns: Flush has
// nothing to do).
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter
	once   sync.Once
	ready  chan int
}

func (w *pipeWriter) Header() http.Header { return w.header }
func (w *pipeWriter) WriteHeader(status int) {
	w.writeHeader(status)
}
func (w *pipeWriter) writeHeader(status int) {
	w.once.Do(func() {
		w.header = w.header.Clone()
		w.ready <- status
	})
}
func (w *pipeWriter) Write(b []byte) (int, error) {
	w.writeHeader(http.StatusOK)
	return w.pw.Write(b)
}
func (w *pipeWriter) Flush()                           {}
func (w *pipeWriter) FlushError() error                { return nil }
func (w *pipeWriter) SetWriteDeadline(time.Time) error { return nil }

// parseDropAfter reads -drop-after: "N" cuts every connection after N
// frames, "N-M" after a count drawn for each connection from [N, M].
func parseDropAfter(v string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(strings.TrimSpace(v), "-")
	if lo, err = strconv.Atoi(a); err != nil || lo < 0 {
		return 0, 0, errors.New("-drop-after: want N or N-M (frames), got " + strconv.Quote(v))
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil || hi < lo || lo == 0 {
			return 0, 0, errors.New("-drop-after: want N or N-M with 0 < N <= M, got " + strconv.Quote(v))
		}
	}
	return lo, hi, nil
}
