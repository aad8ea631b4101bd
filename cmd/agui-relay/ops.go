package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agui-reducer/agui/relay"
)

// What an operator needs besides the relay's own flags: the version,
// configuration from the environment, structured logs, an admin listener.

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
// Empty: relayVersion derives one from the build information.
var version string

// relayVersion is version, or the module's version and VCS revision the
// go command recorded ("devel+0123456789ab", "-dirty" when modified).
func relayVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && v == "devel" {
		v += "+" + rev[:min(12, len(rev))]
		if dirty {
			v += "-dirty"
		}
	}
	return v
}

// envPrefix names the environment variables of the flags:
// AGUI_RELAY_MAX_RUNS for -max-runs.
const envPrefix = "AGUI_RELAY_"

// envName is the environment variable of flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// applyEnv sets the flags of fs from the environment (before fs.Parse,
// so that a flag on the command line wins). A value the flag refuses is
// an error naming the variable.
func applyEnv(fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "version" {
			return
		}
		if v, ok := lookup(envName(f.Name)); ok {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: %v", envName(f.Name), v, err))
			}
		}
	})
	return errors.Join(errs...)
}

// newLogger is the process's logger: text or JSON lines on w, with
// timestamps, at level and above.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: want debug, info, warn or error, got %q", level)
	}
	opt := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opt)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opt)), nil
	}
	return nil, fmt.Errorf("-log-format: want text or json, got %q", format)
}

// adminHandler serves what an operator's tools read, on a private
// address: the metrics, the probes, and pprof.
func adminHandler(srv *relay.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", srv.MetricsHandler())
	mux.Handle("GET /livez", srv)
	mux.Handle("GET /readyz", srv)
	mux.Handle("GET /healthz", srv)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serveAdmin serves the admin handler on addr until stop is called.
func serveAdmin(addr string, h http.Handler) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-admin-addr: %v", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	// The URL on its own line, as the main one.
	fmt.Printf("agui-relay: admin on http://%s/\n", ln.Addr())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}

// exitOnEnvError reports a bad environment value and exits 2, as a bad
// flag does.
func exitOnEnvError(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "agui-relay: environment: %v\n", err)
		os.Exit(2)
	}
}
