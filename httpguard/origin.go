package httpguard

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Origins are the origins besides the server's own whose pages may call
// it. The zero value allows none.
type Origins struct {
	any     bool            // "*": every origin (local development)
	origins map[string]bool // canonical origins
}

// ParseOrigins reads a list of origins ("http://localhost:5173") or "*".
func ParseOrigins(list []string) (Origins, error) {
	p := Origins{origins: map[string]bool{}}
	for _, o := range list {
		o = strings.TrimSpace(o)
		switch o {
		case "":
			continue
		case "*":
			p.any = true
			continue
		}
		c, err := CanonicalOrigin(o)
		if err != nil {
			return Origins{}, err
		}
		p.origins[c] = true
	}
	return p, nil
}

// CanonicalOrigin is the origin as a browser sends it in an Origin header:
// lower-case scheme and host, no default port, no trailing slash. An origin
// is a scheme and a host, with no path, query or user.
func CanonicalOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q is not an origin (want scheme://host[:port], e.g. http://localhost:5173, or *)", o)
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

// Allows reports whether a cross-origin request from origin may be served
// (an opaque origin, "null", never is).
func (p Origins) Allows(origin string) bool {
	return origin != "" && origin != "null" && (p.any || p.origins[origin])
}

// Enabled reports whether any other origin is allowed.
func (p Origins) Enabled() bool { return p.any || len(p.origins) > 0 }

// SameOrigin reports whether a request comes from a page of the server's
// own origin or from a non-browser client, by its Origin and
// Sec-Fetch-Site headers. Browsers send Origin with every POST; a request
// with neither header is not from a web page (curl, an SDK) and cannot be
// forged by one.
func SameOrigin(r *http.Request) bool {
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
	self, err := CanonicalOrigin(scheme + "://" + r.Host)
	return err == nil && origin == self
}
