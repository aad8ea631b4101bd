package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agui-reducer/agui/relay"
	"github.com/agui-reducer/agui/relay/store"
)

// Threads (docs/relay.md): the server runs package relay in-process, with
// its own agent (the recorded runs, or the -upstream proxy) as the relay's
// upstream. The relay's API is mounted under /relay/ — POST /relay/agent
// runs a turn that is kept in its thread, GET /relay/threads/{threadId}
// answers with the thread as it stands (and attaches to its live run),
// DELETE /relay/threads/{threadId} — and GET/DELETE /threads/{threadId}
// answer as under /relay/. The demo page talks to /relay/agent, so a
// reload shows its conversation and attaches to a run still going.
//
// The store is -store: memory: by default (nothing survives a restart),
// bolt:PATH to keep threads across restarts. Its bounds follow the run
// log's flags: -resume-bytes bounds the store, -resume-ttl how long a
// finished run stays resumable, -resume-grace how long a run nobody reads
// goes on.

// relayPrefix is where the relay's API is mounted.
const relayPrefix = "/relay"

// internalUpstream is the URL the relay posts its runs to: never dialled,
// the transport calls the server's agent handler.
var internalUpstream = &url.URL{Scheme: "http", Host: "agui-demo.internal", Path: "/agent"}

// internalKey marks a request the relay makes to the server's own agent:
// -drop-after does not cut it (the relay's clients are cut instead).
type internalKey struct{}

func isInternal(ctx context.Context) bool { return ctx.Value(internalKey{}) != nil }

// newRelay starts the in-process relay over st.
func (s *server) newRelay(st store.Store) (*relay.Server, error) {
	runBytes := min(s.logBytes/16, relay.DefaultMaxRunBytes)
	grace := s.resumeGrace
	if grace == 0 {
		grace = -1 // the relay's zero is its default; the demo's is "stop at once"
	}
	return relay.New(relay.Config{
		Store:          st,
		Upstream:       internalUpstream,
		Client:         &http.Client{Transport: handlerTransport{http.HandlerFunc(s.agent)}},
		CORS:           s.corsOrigins,
		AllowHosts:     s.allowHosts,
		MaxBody:        s.maxBody,
		MaxRuns:        s.maxRuns,
		MaxEventBytes:  int(min(runBytes, relay.DefaultMaxEventBytes)),
		MaxRunBytes:    runBytes,
		MaxThreadBytes: max(s.logBytes/4, 2*runBytes),
		MaxStoreBytes:  s.logBytes,
		RunTTL:         s.logTTL,
		Grace:          grace,
		Context:        s.ctx,
		Logf:           func(f string, a ...any) { s.logf("relay: "+f, a...) },
	})
}

// produceTo answers the relay's upstream request with the recorded run,
// produced straight into the response: the relay keeps the run's log (its
// frames, ids, resumes), so the run log (runlog.go) does not hold it too.
func (s *server) produceTo(w http.ResponseWriter, r *http.Request, req runRequest) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Agui-Scenario", req.scenario.name)
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

// threadKeyHeader is the relay's credential header: a POST /agent that
// carries it is a turn of a kept thread, served by the relay.
const threadKeyHeader = "X-Agui-Thread-Key"

// mountRelay adds the relay's routes to mux.
func (s *server) mountRelay(mux *http.ServeMux) {
	h := http.StripPrefix(relayPrefix, http.HandlerFunc(s.serveThreads))
	for _, m := range []string{"GET", "POST", "DELETE", "OPTIONS"} {
		mux.Handle(m+" "+relayPrefix+"/", h)
	}
	for _, m := range []string{"GET", "DELETE", "OPTIONS"} {
		mux.HandleFunc(m+" /threads/{thread}", s.serveThreads)
	}
}

// serveThreads serves a request with the relay; -drop-after cuts its
// streams as it cuts the recorded agent's.
func (s *server) serveThreads(w http.ResponseWriter, r *http.Request) {
	if s.dropAfter <= 0 {
		s.threads.ServeHTTP(w, r)
		return
	}
	cut := s.dropAfter
	if s.dropAfterMax > cut {
		cut += rand.IntN(s.dropAfterMax - cut + 1)
	}
	dw := &dropWriter{ResponseWriter: w, left: cut}
	s.threads.ServeHTTP(dw, r)
}

// dropWriter passes a relay's answer on until left frames with an id have
// been written, then cuts the connection as serveRun does (-drop-after).
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
				time.Sleep(dropLinger) // as serveRun: the client reads what was sent
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
