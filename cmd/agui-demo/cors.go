package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// corsPolicy is the -cors flag: the origins, besides the page's own, whose
// scripts may POST /agent and read the answer. The zero value allows none
// (same origin only), which is the default.
type corsPolicy struct {
	any     bool            // "*": every origin (local development)
	origins map[string]bool // serialised origins, "scheme://host[:port]"
}

// parseCORS reads a comma-separated list of origins ("http://localhost:5173")
// or "*". An origin is a scheme and a host, with no path, query or user.
func parseCORS(s string) (corsPolicy, error) {
	var p corsPolicy
	for _, o := range strings.Split(s, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o == "*" {
			p.any = true
			continue
		}
		canon, err := canonicalOrigin(o)
		if err != nil {
			return corsPolicy{}, err
		}
		if p.origins == nil {
			p.origins = map[string]bool{}
		}
		p.origins[canon] = true
	}
	return p, nil
}

// canonicalOrigin is the origin as a browser sends it in an Origin header:
// lower-case scheme and host, no default port, no trailing slash.
func canonicalOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("-cors: %q is not an origin (want scheme://host[:port], e.g. http://localhost:5173, or *)", o)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
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

// allows reports whether a cross-origin request from origin may be served.
func (p corsPolicy) allows(origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	if p.any {
		return true
	}
	return p.origins[origin]
}

// enabled reports whether any other origin is allowed.
func (p corsPolicy) enabled() bool { return p.any || len(p.origins) > 0 }

// corsRequestHeaders are the request headers a cross-origin page may send:
// those of the web module's run() and Last-Event-ID to resume a stream.
var corsRequestHeaders = []string{"Content-Type", "Accept", "Last-Event-ID", "X-Agui-Thread-Key"}

// corsExposedHeaders are the response headers a cross-origin page may read.
var corsExposedHeaders = []string{"X-Agui-Scenario", "X-Agui-Thread-Key", "X-Agui-Run"}

// withCORS wraps an endpoint (POST /agent, GET /scenarios): a request from an
// allowed origin gets the headers that let its page read the answer, and a
// preflight (OPTIONS) from an allowed origin is answered here. Anything else
// gets no CORS headers at all, so browsers keep other origins out. extra
// names more request headers a page may send (the proxy's -upstream-headers).
func (p corsPolicy) withCORS(methods string, extra []string, next http.Handler) http.Handler {
	allowHeaders := strings.Join(append(append([]string(nil), corsRequestHeaders...), extra...), ", ")
	expose := strings.Join(corsExposedHeaders, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		h := w.Header()
		h.Add("Vary", "Origin")
		allowed := origin != "" && p.allows(origin)
		if r.Method == http.MethodOptions {
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			if !allowed {
				httpError(w, http.StatusForbidden, "cross_origin", "cross-origin requests from "+quoteOrigin(origin)+" are not allowed (start agui-demo with -cors ORIGIN)")
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Methods", methods)
			h.Set("Access-Control-Allow-Headers", allowHeaders)
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", expose)
		}
		next.ServeHTTP(w, r)
	})
}

func quoteOrigin(o string) string {
	if o == "" {
		return "a page with no Origin"
	}
	return fmt.Sprintf("%q", o)
}

// dropUpstreamCORS removes the upstream agent's CORS headers from a proxied
// answer: which origins may read it is this server's decision (-cors), not
// the upstream's.
func dropUpstreamCORS(resp *http.Response) error {
	for k := range resp.Header {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), "Access-Control-") {
			delete(resp.Header, k)
		}
	}
	return nil
}
