package relay

import (
	"net/http"

	"github.com/agui-reducer/agui/httpguard"
)

// The relay's defences (package httpguard, shared with cmd/agui-demo):
// Host names against DNS rebinding, Origin against other sites' pages,
// CORS only for the origins configured, bounded bodies and streams,
// timeouts on slow clients.

// Headers a cross-origin page may send and read.
var (
	corsAllowHeaders  = []string{"Content-Type", "Accept", "Last-Event-ID", threadKeyHeader}
	corsExposeHeaders = []string{threadKeyHeader, threadIDHeader, runHeader, lastEventIDHeader, partialHeader}
)

// newGuard is the guard of every endpoint: Host first, then the origin
// (with CORS and preflights for allowed origins).
func newGuard(cfg Config) (*httpguard.Guard, error) {
	g := &httpguard.Guard{
		Methods:       "GET, POST, DELETE",
		AllowHeaders:  append(append([]string(nil), corsAllowHeaders...), cfg.UpstreamHeaders...),
		ExposeHeaders: append(append([]string(nil), corsExposeHeaders...), cfg.ExposeHeaders...),
		HostHint:      " (-allow-host adds names)",
		OriginHint:    " (-cors adds origins)",
	}
	if cfg.AuthHeader != "" {
		g.AllowHeaders = append(g.AllowHeaders, cfg.AuthHeader)
	}
	var err error
	if g.Hosts, err = httpguard.ParseHosts(cfg.AllowHosts); err != nil {
		return nil, err
	}
	if g.Origins, err = httpguard.ParseOrigins(cfg.CORS); err != nil {
		return nil, err
	}
	return g, nil
}

// httpError answers {"error": message, "code": code}.
func httpError(w http.ResponseWriter, status int, code, msg string) {
	httpguard.Error(w, status, code, msg)
}
