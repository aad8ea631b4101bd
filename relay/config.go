package relay

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"time"

	"github.com/agui-reducer/agui/relay/store"
)

// Defaults of Config (and of cmd/agui-relay's flags).
const (
	DefaultMaxBody        = 8 << 20  // bytes of one POST /agent body
	DefaultMaxRuns        = 64       // runs produced at once by one instance
	DefaultMaxEventBytes  = 1 << 20  // bytes of one upstream event
	DefaultMaxRunBytes    = 16 << 20 // bytes of one run's input and frames
	DefaultMaxThreadBytes = 64 << 20 // bytes of one thread: snapshot and kept runs
	DefaultMaxStoreBytes  = 1 << 30  // bytes of all threads together
	DefaultRetention      = 30 * 24 * time.Hour
	DefaultRunTTL         = 10 * time.Minute // a finished run stays resumable
	DefaultGrace          = 30 * time.Second // a run nobody reads goes on
	DefaultLease          = 6 * time.Second  // a producer silent for longer is lost
	DefaultUpstreamIdle   = 2 * time.Minute  // an upstream silent for longer has stalled
	DefaultRunTimeout     = 30 * time.Minute // the longest run
	DefaultStoreTimeout   = 10 * time.Second // how long a failing store is retried
	DefaultSweepEvery     = time.Minute
)

// Config configures a Server. Zero values are the defaults.
type Config struct {
	// Store keeps the runs and threads (required).
	Store store.Store
	// Upstream is the AG-UI agent's endpoint (required): every new run is
	// a POST of the client's body there.
	Upstream *url.URL
	// UpstreamDialect, when set, is the upstream's dialect (package
	// dialect): its events are translated to canonical AG-UI, by one
	// translator per run.
	UpstreamDialect string
	// UpstreamHeaders are request headers passed to the upstream besides
	// Content-Type, Accept, Accept-Language and User-Agent, which always pass
	// (e.g. Authorization).
	UpstreamHeaders []string
	// Client makes the upstream requests; nil is a client with no overall
	// timeout (runs are long; UpstreamIdle and RunTimeout bound them).
	Client *http.Client

	// AuthHeader names the request header whose value is the client's
	// credential (e.g. Authorization): a thread or run is readable only
	// with the value that created it, kept as a keyed hash. Empty: the
	// relay hands each new client a thread key (X-Agui-Thread-Key) that
	// plays that part.
	AuthHeader string
	// AuthJWKS, when set, is the URL of a JSON Web Key Set (https, or http
	// on loopback): the credential is then a bearer JWT in AuthHeader
	// (default Authorization) signed by one of its keys, and a thread or
	// run belongs to the token's AuthClaim (default "sub"), so a refreshed
	// token keeps them (principal.go). AuthIssuer and AuthAudience, when
	// set, are required of the token's iss and aud.
	AuthJWKS     string
	AuthIssuer   string
	AuthAudience string
	AuthClaim    string
	// Secret is the HMAC key of credentials and thread keys; nil uses the
	// store's (created on first use), so that instances and restarts
	// agree.
	Secret []byte
	// KeylessRuns serves a POST /agent without a credential (no auth
	// header configured, no thread key sent) as a thread of its own, whose
	// event ids alone resume it (keyless.go): what @ag-ui/client's
	// HttpAgent and other clients that keep no key need. Its threadId may
	// be left out.
	KeylessRuns bool
	// Instance names this process in the store (random when empty).
	Instance string

	// Who may use it (security.go, package httpguard).
	CORS       []string // other origins whose pages may call the relay ("*": any)
	AllowHosts []string // Host names answered besides loopback names and IP addresses
	// ExposeHeaders are more response headers an allowed page may read
	// (those a handler wrapping the relay sets).
	ExposeHeaders []string

	// Bounds.
	MaxBody        int64 // bytes of a POST /agent body
	MaxRuns        int   // runs produced at once by this instance
	MaxConns       int   // streams served at once by this instance (default 4×MaxRuns)
	MaxLoads       int   // GET /threads answers built at once by this instance (default GOMAXPROCS; load.go)
	MaxEventBytes  int   // bytes of one upstream event
	MaxRunBytes    int64 // bytes of one run (input and frames)
	MaxThreadBytes int64 // bytes of one thread (snapshot and kept runs)
	MaxStoreBytes  int64 // bytes of all threads
	MaxThreads     int   // threads kept (0: no bound but the bytes); the least recently used go

	// Times.
	Retention    time.Duration // threads not updated for that long are deleted (<0: never)
	RunTTL       time.Duration // a folded run's frames are kept that long after its end
	Grace        time.Duration // a run nobody reads goes on that long (<0: 0, stopped when its last client leaves)
	Lease        time.Duration // producer heartbeat: lost after that long without one
	UpstreamIdle time.Duration // an upstream silent that long has stalled
	RunTimeout   time.Duration // a run is stopped after that long
	StoreTimeout time.Duration // how long a failing store is retried
	SweepEvery   time.Duration // how often limits are applied (<0: never)

	// Version is the relay's version, in /healthz, /livez and the
	// agui_relay_build_info metric.
	Version string
	// NoMetrics leaves GET /metrics out of the handler (MetricsHandler
	// still serves them, e.g. on an admin port).
	NoMetrics bool

	// Context ends the runs being produced when done; nil: Close does.
	Context context.Context
	// Logger logs (log/slog): what happens to runs and the store, a line
	// per run the relay ends with an error (its code and reason), and with
	// AccessLog a line per request. Nil: Logf's, at every level.
	Logger *slog.Logger
	// AccessLog logs each request when it ends (method, path, status,
	// bytes, duration, the run), at Info.
	AccessLog bool
	// Logf logs when Logger is nil; nil: silent.
	Logf func(format string, args ...any)
}

func (c *Config) defaults() {
	def := func(p *time.Duration, d time.Duration) {
		if *p == 0 {
			*p = d
		}
	}
	if c.AuthJWKS != "" && c.AuthHeader == "" {
		c.AuthHeader = "Authorization"
	}
	if c.AuthClaim == "" {
		c.AuthClaim = "sub"
	}
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxRuns <= 0 {
		c.MaxRuns = DefaultMaxRuns
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 4 * c.MaxRuns
	}
	if c.MaxLoads <= 0 {
		c.MaxLoads = runtime.GOMAXPROCS(0)
	}
	if c.MaxEventBytes <= 0 {
		c.MaxEventBytes = DefaultMaxEventBytes
	}
	if c.MaxRunBytes <= 0 {
		c.MaxRunBytes = DefaultMaxRunBytes
	}
	if c.MaxThreadBytes <= 0 {
		c.MaxThreadBytes = DefaultMaxThreadBytes
	}
	if c.MaxStoreBytes <= 0 {
		c.MaxStoreBytes = DefaultMaxStoreBytes
	}
	def(&c.Retention, DefaultRetention)
	def(&c.RunTTL, DefaultRunTTL)
	def(&c.Grace, DefaultGrace)
	if c.Grace < 0 {
		c.Grace = 0
	}
	def(&c.Lease, DefaultLease)
	def(&c.UpstreamIdle, DefaultUpstreamIdle)
	def(&c.RunTimeout, DefaultRunTimeout)
	def(&c.StoreTimeout, DefaultStoreTimeout)
	def(&c.SweepEvery, DefaultSweepEvery)
	if c.Logger == nil {
		if c.Logf != nil {
			c.Logger = slog.New(logfHandler{logf: c.Logf})
		} else {
			c.Logger = slog.New(slog.DiscardHandler)
		}
	}
	if c.Client == nil {
		c.Client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			MaxIdleConnsPerHost:   64,
			ResponseHeaderTimeout: c.UpstreamIdle,
			IdleConnTimeout:       90 * time.Second,
		}}
	}
}
