package relay

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agui-reducer/agui/relay/store"
)

// Metrics. Each Server has its own registry (a process may run several,
// as tests and cmd/agui-demo do), served by MetricsHandler in the
// Prometheus text format: GET /metrics on the relay's handler and on
// cmd/agui-relay's -admin-addr. docs/relay.md ("Operating") lists them.
type metrics struct {
	reg *prometheus.Registry

	runsStarted   prometheus.Counter
	runsEnded     *prometheus.CounterVec // outcome, code
	runsRefused   *prometheus.CounterVec // code
	frames        prometheus.Counter
	frameBytes    prometheus.Counter
	storeSeconds  *prometheus.HistogramVec // op
	storeErrors   *prometheus.CounterVec   // op
	upSeconds     prometheus.Histogram
	upFailures    *prometheus.CounterVec // reason
	upResumes     prometheus.Counter
	evictedThread prometheus.Counter
	evictedRuns   prometheus.Counter
	resumes       prometheus.Counter
	requests      *prometheus.CounterVec // method, code
}

func newMetrics(s *Server) *metrics {
	const ns = "agui_relay"
	m := &metrics{reg: prometheus.NewRegistry()}
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	m.runsStarted = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "runs_started_total",
		Help: "Runs this instance started producing."})
	m.runsEnded = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "runs_ended_total",
		Help: "Runs this instance produced that ended, by outcome (finished, error) and code (the relay's RUN_ERROR code, agent for the agent's own RUN_ERROR, none when finished)."},
		[]string{"outcome", "code"})
	m.runsRefused = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "runs_refused_total",
		Help: "POST /agent refused for capacity or the store, by code (too_many_runs, too_many_streams, store_unavailable, shutting_down)."},
		[]string{"code"})
	m.frames = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "frames_stored_total",
		Help: "Frames this instance appended to run logs (last frames included)."})
	m.frameBytes = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "frame_bytes_stored_total",
		Help: "Bytes of the frames this instance appended."})
	m.storeSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "store_seconds",
		Help:    "Latency of store operations (reads that wait for frames excluded), by operation.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}},
		[]string{"op"})
	m.storeErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "store_errors_total",
		Help: "Store operations that failed (not answers such as not found), by operation."},
		[]string{"op"})
	m.upSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "upstream_response_seconds",
		Help:    "Time from a request to the agent to its response headers.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}})
	m.upFailures = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "upstream_failures_total",
		Help: "Runs the agent failed, by reason (unreachable, status, not_sse, cut, stalled, event_too_large)."},
		[]string{"reason"})
	m.upResumes = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "upstream_resumes_total",
		Help: "Cut agent answers asked for again with Last-Event-ID."})
	m.evictedThread = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "evicted_threads_total",
		Help: "Threads deleted by retention and the store's bounds (-retention, -max-store-bytes, -max-threads)."})
	m.evictedRuns = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "evicted_runs_total",
		Help: "Runs whose frames were dropped by sweeps (-run-ttl, evicted threads)."})
	m.resumes = prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "resumes_total",
		Help: "Requests with Last-Event-ID (a client resuming a run)."})
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "http_requests_total",
		Help: "HTTP requests answered, by method and status code."},
		[]string{"method", "code"})
	for _, c := range []prometheus.Collector{m.runsStarted, m.runsEnded, m.runsRefused, m.frames, m.frameBytes,
		m.storeSeconds, m.storeErrors, m.upSeconds, m.upFailures, m.upResumes, m.evictedThread, m.evictedRuns,
		m.resumes, m.requests} {
		f(c)
	}
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "runs_live",
		Help: "Runs this instance produces now (at most -max-runs)."},
		func() float64 { return float64(s.producing.Load()) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "streams_live",
		Help: "Streams this instance serves now (at most -max-conns)."},
		func() float64 { return float64(len(s.conns)) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "max_runs", Help: "-max-runs."},
		func() float64 { return float64(s.cfg.MaxRuns) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "max_streams", Help: "-max-conns."},
		func() float64 { return float64(s.cfg.MaxConns) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "draining", Help: "1 while the relay drains (SIGTERM)."},
		func() float64 {
			if s.draining() {
				return 1
			}
			return 0
		}))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "build_info", Help: "The relay's version (label).",
		ConstLabels: prometheus.Labels{"version": s.cfg.Version}}, func() float64 { return 1 }))
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// MetricsHandler serves the relay's metrics in the Prometheus format.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.m.reg, promhttp.HandlerOpts{})
}

// ended counts a run's end.
func (m *metrics) ended(e *end) {
	code := "none"
	if e.outcome == store.OutcomeError {
		code = e.code
		if code == "" {
			code = "agent"
		}
	}
	m.runsEnded.WithLabelValues(e.outcome, code).Inc()
}

// measuredStore times a store's operations and counts their failures.
type measuredStore struct {
	store.Store
	m *metrics
}

func (ms measuredStore) done(op string, start time.Time, err error) {
	ms.m.storeSeconds.WithLabelValues(op).Observe(time.Since(start).Seconds())
	if err != nil && !isFinal(err) && !errors.Is(err, context.Canceled) {
		ms.m.storeErrors.WithLabelValues(op).Inc()
	}
}

func (ms measuredStore) Create(ctx context.Context, r *store.Run) error {
	t := time.Now()
	err := ms.Store.Create(ctx, r)
	ms.done("create", t, err)
	return err
}

func (ms measuredStore) Append(ctx context.Context, run string, seq int64, data []byte, lease time.Time) error {
	t := time.Now()
	err := ms.Store.Append(ctx, run, seq, data, lease)
	ms.done("append", t, err)
	if err == nil {
		ms.m.frames.Inc()
		ms.m.frameBytes.Add(float64(len(data)))
	}
	return err
}

func (ms measuredStore) Finish(ctx context.Context, run string, seq int64, data []byte, outcome string) error {
	t := time.Now()
	err := ms.Store.Finish(ctx, run, seq, data, outcome)
	ms.done("finish", t, err)
	if err == nil && data != nil {
		ms.m.frames.Inc()
		ms.m.frameBytes.Add(float64(len(data)))
	}
	return err
}

func (ms measuredStore) Read(ctx context.Context, run string, after int64, max int, wait time.Duration) ([]store.Frame, *store.Run, error) {
	t := time.Now()
	fs, r, err := ms.Store.Read(ctx, run, after, max, wait)
	if wait <= 0 {
		ms.done("read", t, err)
	} else if err != nil && !isFinal(err) && ctx.Err() == nil {
		ms.m.storeErrors.WithLabelValues("tail").Inc()
	}
	return fs, r, err
}

func (ms measuredStore) Thread(ctx context.Context, thread string) (*store.Thread, error) {
	t := time.Now()
	th, err := ms.Store.Thread(ctx, thread)
	ms.done("thread", t, err)
	return th, err
}

func (ms measuredStore) Fold(ctx context.Context, thread string, version int64, snapshot []byte, folded, drop []string) error {
	t := time.Now()
	err := ms.Store.Fold(ctx, thread, version, snapshot, folded, drop)
	ms.done("fold", t, err)
	return err
}

func (ms measuredStore) Renew(ctx context.Context, run string, lease time.Time) (time.Time, error) {
	t := time.Now()
	r, err := ms.Store.Renew(ctx, run, lease)
	ms.done("renew", t, err)
	return r, err
}

func (ms measuredStore) Sweep(ctx context.Context, now time.Time, lim store.Limits) (store.Swept, error) {
	t := time.Now()
	sw, err := ms.Store.Sweep(ctx, now, lim)
	ms.done("sweep", t, err)
	ms.m.evictedThread.Add(float64(sw.Threads))
	ms.m.evictedRuns.Add(float64(sw.Runs))
	return sw, err
}

// Check is the store's (store.Checker), or else a read of its usage.
func (ms measuredStore) Check(ctx context.Context) error {
	t := time.Now()
	var err error
	if c, ok := ms.Store.(store.Checker); ok {
		err = c.Check(ctx)
	} else {
		_, err = ms.Store.Usage(ctx)
	}
	ms.done("check", t, err)
	return err
}
