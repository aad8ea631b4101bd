package relay

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The relay's defences, as in cmd/agui-demo: Host names against DNS
// rebinding, Origin against other sites' pages, CORS only for the origins
// configured, bounded bodies and streams, timeouts on slow clients.

// Timeouts of the HTTP server: a client that sends its request slowly is
// cut off; a stream is not (each write has frameWriteTimeout).
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 60 * time.Second
	frameWriteTimeout = 30 * time.Second
	maxHeaderBytes    = 64 << 10
)

// NewHTTPServer is an http.Server for h with the relay's timeouts (no
// WriteTimeout: a run streams as long as it lasts).
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// hostPolicy: loopback names and IP literals always; more names listed
// ("*.example" for subdomains).
type hostPolicy map[string]bool

func parseHosts(list []string) (hostPolicy, error) {
	p := hostPolicy{}
	for _, n := range list {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-.*:[]", c)) {
				return nil, errors.New("allowed host " + strconv.Quote(n) + " is not a host name")
			}
		}
		if h, _, err := net.SplitHostPort(n); err == nil {
			n = h
		}
		p[strings.TrimSuffix(n, ".")] = true
	}
	return p, nil
}

func (p hostPolicy) allows(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	switch {
	case host == "":
		return false
	case net.ParseIP(host) != nil, host == "localhost", strings.HasSuffix(host, ".localhost"), p[host]:
		return true
	}
	for rest := host; ; {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
		if p["*."+rest] {
			return true
		}
	}
}

// corsPolicy: the origins besides the relay's own whose pages may call it.
type corsPolicy struct {
	any     bool
	origins map[string]bool
}

func parseCORS(list []string) (corsPolicy, error) {
	p := corsPolicy{origins: map[string]bool{}}
	for _, o := range list {
		o = strings.TrimSpace(o)
		switch o {
		case "":
			continue
		case "*":
			p.any = true
			continue
		}
		c, err := canonicalOrigin(o)
		if err != nil {
			return corsPolicy{}, err
		}
		p.origins[c] = true
	}
	return p, nil
}

func canonicalOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q is not an origin (want scheme://host[:port] or *)", o)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return strings.ToLower(u.Scheme) + "://" + host, nil
}

func (p corsPolicy) allows(origin string) bool {
	return origin != "" && origin != "null" && (p.any || p.origins[origin])
}

// sameOrigin reports whether a request comes from a page of the relay's
// own origin or from a non-browser client (no Origin, no cross-site
// Sec-Fetch-Site).
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
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

// Headers a cross-origin page may send and read.
const (
	corsAllowHeaders  = "Content-Type, Accept, Last-Event-ID, " + threadKeyHeader
	corsExposeHeaders = threadKeyHeader + ", " + runHeader + ", " + lastEventIDHeader + ", " + partialHeader
)

// guard wraps every endpoint: Host first, then the origin (with CORS and
// preflights for allowed origins).
func (s *Server) guard(next http.Handler) http.Handler {
	allowHeaders := corsAllowHeaders
	if s.cfg.AuthHeader != "" {
		allowHeaders += ", " + s.cfg.AuthHeader
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts.allows(r.Host) {
			httpError(w, http.StatusForbidden, "host_not_allowed", "this relay does not answer to host "+strconv.Quote(r.Host))
			return
		}
		origin := r.Header.Get("Origin")
		h := w.Header()
		h.Add("Vary", "Origin")
		allowed := origin != "" && s.cors.allows(origin)
		if r.Method == http.MethodOptions {
			if !allowed {
				httpError(w, http.StatusForbidden, "cross_origin", "cross-origin requests from "+strconv.Quote(origin)+" are not allowed")
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			h.Set("Access-Control-Allow-Headers", allowHeaders)
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if !sameOrigin(r) && !allowed {
			httpError(w, http.StatusForbidden, "cross_origin", "requests from origin "+strconv.Quote(origin)+" are not allowed (configure it with -cors)")
			return
		}
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		}
		next.ServeHTTP(w, r)
	})
}

// httpError answers {"error": message, "code": code}.
func httpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{msg, code})
	w.Write(append(b, '\n'))
}
