// Command agui-relay puts persistent, resumable threads in front of any
// AG-UI agent (package relay; docs/relay.md).
//
//	go run ./cmd/agui-relay -upstream http://127.0.0.1:8000/agent
//
// Clients POST /agent as to the agent itself; every frame of the answer
// carries an SSE id, a dropped client resumes with Last-Event-ID, and
// GET /threads/{threadId} answers with the conversation as it stands.
// Threads are kept in an embedded file by default (-store bolt:PATH), in
// memory (-store memory:) or in Redis for many instances
// (-store redis://HOST:PORT/DB).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/agui-reducer/agui/httpguard"
	"github.com/agui-reducer/agui/relay"
)

func main() {
	log.SetFlags(0)
	addr := flag.String("addr", "127.0.0.1:8090", "listen address (\":0\" picks a free port; the URL is printed)")
	upstream := flag.String("upstream", "", "URL of the AG-UI agent (required)")
	dialectName := flag.String("upstream-dialect", "", "the agent's dialect (sse-contract, tanstack, streaming, auto; docs/dialects.md): its events are stored and sent as canonical AG-UI")
	upHeaders := flag.String("upstream-headers", "", "request headers passed to the agent besides Content-Type, Accept, Accept-Language and User-Agent (comma-separated, e.g. Authorization)")
	storeURL := flag.String("store", "bolt:agui-relay.db", "where threads are kept: bolt:PATH (one machine), redis://HOST:PORT/DB (many instances), redis+cluster://HOST:PORT,HOST:PORT (many instances on a Redis Cluster) or memory: (none kept)")
	authHeader := flag.String("auth-header", "", "request header naming the client: a trusted gateway's user header (e.g. X-User: its value is the user), or with -auth-jwks the bearer token's (default Authorization); empty: the relay hands out thread keys ("+"X-Agui-Thread-Key)")
	authJWKS := flag.String("auth-jwks", "", "URL of the identity provider's JSON Web Key Set (https): the credential is a bearer JWT in -auth-header (default Authorization) and threads belong to its -auth-claim, so a refreshed token keeps them")
	authIssuer := flag.String("auth-issuer", "", "with -auth-jwks: the iss a token must have")
	authAudience := flag.String("auth-audience", "", "with -auth-jwks: an aud a token must have")
	authClaim := flag.String("auth-claim", "sub", "with -auth-jwks: the claim naming the user")
	secretFile := flag.String("secret-file", "", "file holding the HMAC key of credentials (at least 32 bytes); empty: a random key kept in the store")
	cors := flag.String("cors", "", "other origins (comma-separated scheme://host:port, or *) whose pages may call the relay")
	allowHost := flag.String("allow-host", "", "host names (comma-separated; *.example for subdomains) answered besides loopback names and IP addresses")
	maxBody := flag.Int64("max-body", relay.DefaultMaxBody, "largest POST /agent body in bytes")
	maxRuns := flag.Int("max-runs", relay.DefaultMaxRuns, "runs this instance produces at once; more get 503")
	maxConns := flag.Int("max-conns", 0, "streams this instance serves at once (0: 4 × -max-runs)")
	maxLoads := flag.Int("max-loads", 0, "GET /threads answers this instance builds at once (0: GOMAXPROCS); more wait -store-timeout, then get 503")
	maxEvent := flag.Int("max-event-bytes", relay.DefaultMaxEventBytes, "largest upstream event in bytes")
	maxRun := flag.Int64("max-run-bytes", relay.DefaultMaxRunBytes, "largest run (new messages and frames) in bytes")
	maxThread := flag.Int64("max-thread-bytes", relay.DefaultMaxThreadBytes, "largest thread (snapshot and kept runs) in bytes")
	maxStore := flag.Int64("max-store-bytes", relay.DefaultMaxStoreBytes, "all threads together, in bytes: past it the least recently used threads are deleted")
	maxThreads := flag.Int("max-threads", 0, "threads kept (0: no bound but -max-store-bytes): past it the least recently used are deleted")
	keyless := flag.Bool("keyless-runs", false, "serve a POST /agent without a thread key (a client that keeps none) as a thread of its own, resumable by its event ids alone; without -auth-header only")
	retention := flag.Duration("retention", relay.DefaultRetention, "threads not used for that long are deleted (0: never)")
	runTTL := flag.Duration("run-ttl", relay.DefaultRunTTL, "a finished run stays resumable that long, then lives on in its thread's snapshot")
	grace := flag.Duration("grace", relay.DefaultGrace, "a run no client reads goes on that long, waiting for one to resume it (0: stopped as soon as its last client leaves)")
	lease := flag.Duration("lease", relay.DefaultLease, "a producing instance silent that long is lost: its run ends with RUN_ERROR relay_producer_lost")
	upIdle := flag.Duration("upstream-idle", relay.DefaultUpstreamIdle, "an agent silent that long has stalled: its run ends with RUN_ERROR relay_upstream_stalled")
	runTimeout := flag.Duration("run-timeout", relay.DefaultRunTimeout, "the longest run")
	storeTimeout := flag.Duration("store-timeout", relay.DefaultStoreTimeout, "how long a failing store is retried before the run ends with RUN_ERROR relay_store_unavailable")
	sweep := flag.Duration("sweep", relay.DefaultSweepEvery, "how often retention and limits are applied")
	instance := flag.String("instance", "", "this instance's name in the store (default: random)")
	drainTimeout := flag.Duration("drain-timeout", 15*time.Second, "on SIGTERM or SIGINT: how long the runs this instance produces get to end (RUN_ERROR relay_shutdown, sent and stored) and their streams to close, before the process exits")
	logFormat := flag.String("log-format", "text", "log lines as text or json (with timestamps and levels), on stderr")
	logLevel := flag.String("log-level", "info", "the least level logged: debug, info, warn or error")
	accessLog := flag.Bool("access-log", true, "log a line per request (method, path, status, bytes, duration)")
	adminAddr := flag.String("admin-addr", "", "a private address serving /metrics, /livez, /readyz and pprof (/debug/pprof/); with it, /metrics is served there only")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: agui-relay -upstream URL [flags]\n\nPersistent, resumable AG-UI threads in front of an agent (docs/relay.md).\nEvery flag can be set in the environment as AGUI_RELAY_<FLAG> (-max-runs: AGUI_RELAY_MAX_RUNS); a flag wins.\n\n")
		flag.PrintDefaults()
	}
	exitOnEnvError(applyEnv(flag.CommandLine, os.LookupEnv))
	flag.Parse()
	if *showVersion {
		fmt.Println("agui-relay", relayVersion())
		return
	}
	logger, err := newLogger(os.Stderr, *logFormat, *logLevel)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-relay:", err)
		os.Exit(2)
	}
	slog.SetDefault(logger) // the log package's lines too
	if flag.NArg() > 0 || *upstream == "" {
		flag.Usage()
		os.Exit(2)
	}
	up, err := relay.ParseUpstream(*upstream)
	if err != nil {
		log.Fatal(err)
	}
	if *retention == 0 {
		*retention = -1
	}
	if *grace == 0 {
		*grace = -1 // Config's zero is the default; the flag's, no grace (as the demo's -resume-grace)
	}
	var secret []byte
	if *secretFile != "" {
		b, err := os.ReadFile(*secretFile)
		if err != nil {
			log.Fatal(err)
		}
		if secret = []byte(strings.TrimSpace(string(b))); len(secret) < 32 {
			log.Fatal("-secret-file: the key must have at least 32 bytes")
		}
	}
	st, err := relay.OpenStore(*storeURL)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	srv, err := relay.New(relay.Config{
		Store: st, Upstream: up, UpstreamDialect: *dialectName, UpstreamHeaders: httpguard.SplitList(*upHeaders),
		AuthHeader: *authHeader, Secret: secret,
		AuthJWKS: *authJWKS, AuthIssuer: *authIssuer, AuthAudience: *authAudience, AuthClaim: *authClaim, Instance: *instance,
		CORS: httpguard.SplitList(*cors), AllowHosts: httpguard.SplitList(*allowHost),
		MaxBody: *maxBody, MaxRuns: *maxRuns, MaxConns: *maxConns, MaxLoads: *maxLoads, MaxEventBytes: *maxEvent,
		MaxRunBytes: *maxRun, MaxThreadBytes: *maxThread, MaxStoreBytes: *maxStore, MaxThreads: *maxThreads, KeylessRuns: *keyless,
		Retention: *retention, RunTTL: *runTTL, Grace: *grace, Lease: *lease,
		UpstreamIdle: *upIdle, RunTimeout: *runTimeout, StoreTimeout: *storeTimeout, SweepEvery: *sweep,
		Logger: logger, AccessLog: *accessLog, Version: relayVersion(), NoMetrics: *adminAddr != "",
	})
	if err != nil {
		log.Fatal(err)
	}
	logger.Info("started", "instance", srv.Instance(), "version", relayVersion(), "upstream", up.Redacted(), "store", relay.RedactStore(*storeURL))
	if *adminAddr != "" {
		stopAdmin, err := serveAdmin(*adminAddr, adminHandler(srv))
		if err != nil {
			log.Fatal(err)
		}
		defer stopAdmin()
	}
	err = httpguard.ServeDrain(*addr, srv, httpguard.DrainOptions{
		Ready: func(a net.Addr) {
			// The URL on its own line: scripts and tests read it.
			fmt.Printf("agui-relay: listening on http://%s/\n", a)
		},
		Timeout:  *drainTimeout,
		Stopping: func(sig os.Signal) { logger.Info("draining", "signal", sig.String(), "timeout", *drainTimeout) },
		// Runs still produced end with relay_shutdown, sent and stored.
		Drain: func(ctx context.Context) { srv.Shutdown(ctx) },
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	srv.Shutdown(ctx) // on a listener error; else done already
	cancel()
	if err != nil {
		log.Fatal(err)
	}
	logger.Info("stopped")
}
