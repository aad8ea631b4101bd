package main

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The demo server is a starting point people copy, and it runs on a
// developer's machine next to their browser: any web page the browser opens
// can send it requests, and with -upstream each request is a run on the
// user's real agent. These are its defences, each a flag with a safe
// default.

// Defaults of the flags that bound what one client can take.
const (
	defaultMaxBody = 8 << 20 // bytes of one RunAgentInput
	defaultMaxRuns = 32      // runs streamed at once
)

// Timeouts of the HTTP server: a client that sends its request slowly is
// cut off; a stream, once started, is not (its writes have their own
// deadline, frameWriteTimeout).
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second // the whole request, body included
	idleTimeout       = 60 * time.Second
	frameWriteTimeout = 30 * time.Second // a client that stops reading
)

// newHTTPServer is the http.Server of the demo with its timeouts. There is
// no WriteTimeout: a run streams for as long as it lasts.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// hostPolicy is the Host allow-list against DNS rebinding: a page of
// attacker.example whose name is made to resolve to 127.0.0.1 reaches this
// server as same-origin, but its requests carry "Host: attacker.example".
// Loopback names and IP literals are always allowed (a rebinding attack
// needs a name); -allow-host adds names.
type hostPolicy struct {
	names map[string]bool // lower case, no port; "*.example" allows subdomains
}

func parseHosts(s string) (hostPolicy, error) {
	p := hostPolicy{names: map[string]bool{}}
	for _, n := range strings.Split(s, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-.*:[]", c)) {
				return hostPolicy{}, errors.New("-allow-host: " + strconv.Quote(n) + " is not a host name")
			}
		}
		if h, _, err := net.SplitHostPort(n); err == nil {
			n = h
		}
		p.names[strings.TrimSuffix(n, ".")] = true
	}
	return p, nil
}

// allows reports whether a request's Host header names this server.
func (p hostPolicy) allows(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "" {
		return false
	}
	if net.ParseIP(host) != nil {
		return true
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true // always loopback (RFC 6761)
	}
	if p.names[host] {
		return true
	}
	for rest := host; ; {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if p.names["*."+rest] {
			return true
		}
	}
	return false
}

// checkHost wraps the whole server: requests for a Host not on the list are
// refused before anything else.
func (p hostPolicy) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.allows(r.Host) {
			httpError(w, http.StatusForbidden, "host_not_allowed",
				"this server does not answer to host "+strconv.Quote(r.Host)+" (start agui-demo with -allow-host NAME to add it)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether a request comes from a page of this server or
// from a non-browser client, by its Origin and Sec-Fetch-Site headers.
// Browsers send Origin with every POST; a request with neither header is
// not from a web page (curl, an SDK) and cannot be forged by one.
func sameOrigin(r *http.Request) bool {
	site := r.Header.Get("Sec-Fetch-Site")
	switch site {
	case "", "same-origin", "none":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	self, err := canonicalOrigin(scheme + "://" + r.Host)
	return err == nil && origin == self
}

// guardAgent wraps POST /agent (after withCORS): the request must come from
// the page's own origin or an origin -cors allows, carry JSON, and fit in
// maxBody. At most maxRuns are proxied at once; a replayed run is produced
// apart from its connections (startRun caps those at maxRuns), and twice
// as many connections may stream, since a client that resumes may be back
// before the server has seen its old connection go. The body is read here,
// so the handler gets it whole (and the proxy forwards it with a length).
func (s *server) guardAgent(next http.Handler) http.Handler {
	conns := s.maxRuns
	if s.proxy == nil || s.relay {
		conns *= 2 // runs are logged: a client may be back while its run goes on
	}
	sem := make(chan struct{}, conns)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); !sameOrigin(r) && !(origin != "" && s.cors.allows(origin)) {
			httpError(w, http.StatusForbidden, "cross_origin",
				"POST /agent is only accepted from this server's own pages (origin "+strconv.Quote(origin)+"; start agui-demo with -cors ORIGIN to allow another)")
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			httpError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
				"the body must be an AG-UI RunAgentInput sent as Content-Type: application/json")
			return
		}
		if r.ContentLength > s.maxBody {
			httpError(w, http.StatusRequestEntityTooLarge, "too_large", "the body is larger than "+strconv.FormatInt(s.maxBody, 10)+" bytes (-max-body)")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				httpError(w, http.StatusRequestEntityTooLarge, "too_large", "the body is larger than "+strconv.FormatInt(s.maxBody, 10)+" bytes (-max-body)")
			} else {
				httpError(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		// The request is read whole: net/http lifts the read deadline, and
		// the stream lasts as long as the run (TestServerTimeouts).

		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
		default:
			w.Header().Set("Retry-After", "1")
			httpError(w, http.StatusServiceUnavailable, "too_many_runs",
				"the server is streaming "+strconv.Itoa(conns)+" connections already (-max-runs)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// proxyHeaders are the request headers the -upstream proxy forwards: those
// of the AG-UI transport. Cookies and credentials meant for this server are
// not the upstream's; -upstream-headers names more to pass.
var proxyHeaders = []string{"Content-Type", "Accept", "Accept-Language", "User-Agent", "Last-Event-ID"}

// filterProxyHeaders keeps only the request headers in pass (canonical
// names).
func filterProxyHeaders(h http.Header, pass map[string]bool) {
	for k := range h {
		if !pass[http.CanonicalHeaderKey(k)] {
			delete(h, k)
		}
	}
}

// parseHeaderNames reads the -upstream-headers list.
func parseHeaderNames(s string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return nil, errors.New("-upstream-headers: " + strconv.Quote(n) + " is not a header name")
			}
		}
		out = append(out, http.CanonicalHeaderKey(n))
	}
	return out, nil
}
