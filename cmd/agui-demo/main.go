// Command agui-demo serves the demo page of the AG-UI reducer and an AG-UI
// endpoint that replays recorded agent runs, so the reducer can be seen at
// work in a browser with nothing but Go installed.
//
//	go run ./cmd/wasm-build && go run ./cmd/agui-demo     (or: make run)
//
// It serves web/ at / (the page is /demo/) and answers POST /agent, an AG-UI
// RunAgentInput, with a recorded run from testdata/scenarios as a real
// text/event-stream, paced like a model. Every run goes through package relay,
// run in-process (threads.go, docs/relay.md): each frame carries an SSE id
// ("id: <run>:<seq>"), a client whose connection dropped resumes the run with
// Last-Event-ID (docs/resume.md), the run goes on for -resume-grace while no
// client reads it, and what the runs hold is bounded by the relay's store,
// whatever the requests contain (docs/demo.md, "Memory"). A POST /agent
// without X-Agui-Thread-Key is a thread of its own, resumable by its event ids
// alone; one with the key (the demo page's) is a turn of a kept thread, and
// GET /threads/{threadId} answers with the thread as it stands (the relay's
// whole API is also under /relay/). The checks of every request (Host,
// Origin, CORS, body size) are package httpguard's.
//
// The run is chosen by the page (forwardedProps.scenario), by -scenario, or
// else by the words of the user's last message ("reason", "tool",
// "parallel", "state", "activity", "error", "interrupt"…) and named in
// X-Agui-Scenario. Recorded threadId/runId are replaced by the request's, and
// message and tool-call ids get the run id as suffix, so a conversation
// continues across turns (ids longer than 128 bytes are replaced by a short
// keyed hash of them). GET /scenarios lists the runs. With -upstream, runs are
// relayed from a real agent instead (translated from -upstream-dialect).
//
// Flags:
//
//	-addr 127.0.0.1:8080   listen address (":0" picks a free port; the URL is printed)
//	-scenario auto         a scenario name, a .jsonl file of AG-UI events, or auto
//	-speed 1               delay multiplier: 2 is twice as slow, 0 sends at once
//	-web DIR               the folder served at / (default: web/ of the module, whose / is the demo page)
//	-cors ORIGINS          other origins whose pages may use /agent (default: none, same origin only)
//	-allow-host NAMES      more Host names answered (loopback names and IP addresses always are)
//	-max-body 8388608      largest POST /agent body in bytes
//	-max-runs 32           runs produced at once (replayed or relayed)
//	-upstream-headers H    request headers the relay passes upstream (none beyond the transport's)
//	-resume-runs 64        threads (a keyless run is one) kept for resuming (Last-Event-ID; docs/resume.md)
//	-resume-bytes 67108864 bytes the relay's store holds, all threads together
//	-resume-ttl 5m         how long a finished run stays resumable
//	-resume-grace 30s      how long a run nobody reads goes on, waiting for a resume (0: stop at once)
//	-drop-after 0          cut every connection after N frames, or N-M: a random count (to show resuming)
//	-csp POLICY            Content-Security-Policy of the pages served (default: strict; "off": none)
//	-scenarios DIR         the recorded runs (default: testdata/scenarios)
//	-upstream URL          relay POST /agent from a real AG-UI agent instead
//	-store memory:         where runs and threads are kept: memory:, bolt:PATH to keep
//	                       them across restarts, or redis://HOST:PORT/DB (docs/relay.md)
//	-upstream-dialect NAME the upstream speaks dialect NAME (package dialect):
//	                       its answer is re-emitted as canonical AG-UI SSE, one
//	                       translator per run, stored and resumable
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agui-reducer/agui/httpguard"
	"github.com/agui-reducer/agui/relay"
)

const modulePath = "github.com/agui-reducer/agui"

func main() {
	log.SetFlags(0)
	log.SetPrefix("agui-demo: ")
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (\":0\" picks a free port)")
	scen := flag.String("scenario", "auto", "scenario name, path of a .jsonl file of AG-UI events, or auto (chosen by the page or by the user's message)")
	speed := flag.Float64("speed", 1, "delay multiplier: 1 paces like a model, 0.5 is twice as fast, 0 sends everything at once")
	webDir := flag.String("web", "", "directory served at /: its index.html, or the demo page when it has demo/index.html (default: web/ of the module)")
	scenDir := flag.String("scenarios", "", "directory of recorded runs (default: testdata/scenarios of the module)")
	upstream := flag.String("upstream", "", "URL of a real AG-UI agent: POST /agent runs are relayed from there (no CORS needed)")
	upstreamDialect := flag.String("upstream-dialect", "", "the -upstream agent's dialect (sse-contract, tanstack, streaming, auto; see docs/dialects.md): its answer is re-emitted as canonical AG-UI")
	corsFlag := flag.String("cors", "", "origins (comma-separated scheme://host:port, or *) whose pages may use /agent; default: same origin only")
	allowHost := flag.String("allow-host", "", "more host names (comma-separated; *.example for subdomains) this server answers to; loopback names and IP addresses always")
	maxBody := flag.Int64("max-body", defaultMaxBody, "largest POST /agent body in bytes, with -upstream too")
	maxRuns := flag.Int("max-runs", defaultMaxRuns, "runs produced at once (including those waiting for a resume); more get 503")
	upHeaders := flag.String("upstream-headers", "", "request headers passed to the -upstream agent besides the AG-UI transport's (e.g. Authorization,Cookie); none by default")
	logRuns := flag.Int("resume-runs", defaultLogRuns, "threads kept (a run without a thread key is one) so that a dropped client can resume its run (Last-Event-ID)")
	logBytes := flag.Int64("resume-bytes", defaultLogBytes, "bytes the relay's store holds, all threads together (a run may hold a sixteenth)")
	logTTL := flag.Duration("resume-ttl", defaultLogTTL, "how long a finished run stays resumable")
	grace := flag.Duration("resume-grace", defaultGrace, "how long a run goes on once no client reads it, waiting for one to resume it (0: stop at once)")
	dropAfter := flag.String("drop-after", "0", "cut every connection after N frames, or after a random count in N-M, to show and test resuming (0: never)")
	storeURL := flag.String("store", "memory:", "where runs and threads are kept: memory: (lost at exit), bolt:PATH (kept across restarts) or redis://HOST:PORT/DB; docs/relay.md")
	csp := flag.String("csp", "", "Content-Security-Policy of the HTML pages served (default: the demo page's strict policy; \"off\" sends none)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: agui-demo [flags]\n\nServes the demo page and an AG-UI endpoint replaying recorded runs.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *speed < 0 {
		log.Fatal("-speed must be >= 0")
	}

	passHeaders, err := httpguard.ParseHeaderNames(httpguard.SplitList(*upHeaders))
	if err != nil {
		log.Fatal("-upstream-headers: ", err)
	}
	if *maxBody <= 0 || *maxRuns <= 0 {
		log.Fatal("-max-body and -max-runs must be > 0")
	}
	if *logRuns <= 0 || *logBytes <= 0 || *logTTL <= 0 || *grace < 0 {
		log.Fatal("-resume-runs, -resume-bytes and -resume-ttl must be > 0; -resume-grace >= 0")
	}
	dropLo, dropHi, err := parseDropAfter(*dropAfter)
	if err != nil {
		log.Fatal(err)
	}

	root := moduleRoot()
	customWeb := *webDir != ""
	if !customWeb {
		if root == "" {
			log.Fatal("cannot find the module root (go.mod of " + modulePath + "); run from the repository or pass -web and -scenarios")
		}
		*webDir = filepath.Join(root, "web")
	}
	if *scenDir == "" && root != "" {
		*scenDir = filepath.Join(root, "testdata", "scenarios")
	}
	if *scenDir == "" {
		log.Fatal("cannot find the module root (go.mod of " + modulePath + "); pass -scenarios")
	}
	if st, err := os.Stat(*webDir); err != nil || !st.IsDir() {
		log.Fatalf("-web: %s is not a directory", *webDir)
	}
	if _, err := os.Stat(filepath.Join(*webDir, "demo", "index.html")); err == nil || !customWeb {
		// Serving the demo page: it needs the module.
		if _, err := os.Stat(filepath.Join(*webDir, "dist", "agui.wasm")); err != nil {
			log.Printf("warning: %s is missing; build it first (make wasm)", filepath.Join(*webDir, "dist", "agui.wasm"))
		}
	}

	cat, err := loadCatalog(*scenDir)
	if err != nil {
		log.Fatal(err)
	}
	name := *scen
	source := *scenDir // what the log says runs are replayed from
	if strings.HasSuffix(name, ".jsonl") || strings.ContainsRune(name, os.PathSeparator) {
		source = name
		sc, err := loadScenario(strings.TrimSuffix(filepath.Base(name), ".jsonl"), name)
		if err != nil {
			log.Fatal(err)
		}
		cat.add(sc)
		name = sc.name
	} else if name != "auto" && cat.byName[name] == nil {
		log.Fatalf("unknown scenario %q; have: auto, %s", name, strings.Join(cat.order, ", "))
	}

	cfg := config{webDir: *webDir, catalog: cat, scenario: name, speed: *speed, csp: *csp,
		maxBody: *maxBody, maxRuns: *maxRuns, upstreamHeaders: passHeaders,
		logRuns: *logRuns, logBytes: *logBytes, logTTL: *logTTL, resumeGrace: *grace, dropAfter: dropLo, dropAfterMax: dropHi,
		logf: log.Printf, corsOrigins: httpguard.SplitList(*corsFlag), allowHosts: httpguard.SplitList(*allowHost)}
	if *upstream != "" {
		u, err := relay.ParseUpstream(*upstream)
		if err != nil {
			log.Fatal(err)
		}
		cfg.upstream = u
		cfg.upstreamDialect = *upstreamDialect
	}
	st, err := relay.OpenStore(*storeURL)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	cfg.store = st

	demo, err := newServer(cfg)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("POST /agent: %s", describeAgent(cfg.upstream, source, name, *speed))
	err = httpguard.Serve(*addr, demo, func(a net.Addr) {
		// The URL on its own line: scripts and tests read it.
		fmt.Printf("agui-demo: open %s\n", pageURL(a))
	})
	demo.wait() // the runs end (stored) before the store closes
	if err != nil {
		log.Fatal(err)
	}
}

// describeAgent is what the log says POST /agent answers with: runs relayed
// from the upstream, or replayed from the scenario file or folder given
// (source) at speed.
func describeAgent(upstream *url.URL, source, scenario string, speed float64) string {
	if upstream != nil {
		return "relayed from " + upstream.Redacted()
	}
	if strings.HasSuffix(source, ".jsonl") {
		return fmt.Sprintf("replaying %s (speed %g)", source, speed)
	}
	return fmt.Sprintf("replaying %s (scenario %s, speed %g)", source, scenario, speed)
}

// pageURL is the address to open for a listener: an unspecified host
// (":0", "0.0.0.0", "[::]") is shown as localhost.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// moduleRoot walks up from the working directory to the go.mod of this
// module, or returns "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && f[1] == modulePath {
					return dir
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
