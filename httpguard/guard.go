package httpguard

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Guard checks every request of a server: Host first, then the origin
// (with CORS headers and preflights for the allowed origins).
type Guard struct {
	Hosts   Hosts
	Origins Origins
	// Methods, AllowHeaders and ExposeHeaders answer a preflight and let
	// an allowed page send and read those.
	Methods       string
	AllowHeaders  []string
	ExposeHeaders []string
	// Hint ends the refusals' messages: how to allow more (e.g. the
	// flags), or "".
	HostHint, OriginHint string
}

// Host refuses the requests whose Host the allow-list does not name, with
// 403 host_not_allowed.
func (g *Guard) Host(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.Hosts.Allows(r.Host) {
			Error(w, http.StatusForbidden, "host_not_allowed", "this server does not answer to host "+strconv.Quote(r.Host)+g.HostHint)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Origin answers the preflights of allowed origins, refuses requests from
// other sites' pages (403 cross_origin), and lets an allowed page read the
// answer.
func (g *Guard) Origin(next http.Handler) http.Handler {
	allow := strings.Join(g.AllowHeaders, ", ")
	expose := strings.Join(g.ExposeHeaders, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		h := w.Header()
		h.Add("Vary", "Origin")
		allowed := origin != "" && g.Origins.Allows(origin)
		if r.Method == http.MethodOptions {
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			if !allowed {
				Error(w, http.StatusForbidden, "cross_origin", "cross-origin requests from "+quoteOrigin(origin)+" are not allowed"+g.OriginHint)
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Methods", g.Methods)
			h.Set("Access-Control-Allow-Headers", allow)
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if !allowed && !SameOrigin(r) {
			Error(w, http.StatusForbidden, "cross_origin", "requests from "+quoteOrigin(origin)+" are not allowed, only from this server's own pages"+g.OriginHint)
			return
		}
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", expose)
		}
		next.ServeHTTP(w, r)
	})
}

// Handler is Host(Origin(next)).
func (g *Guard) Handler(next http.Handler) http.Handler { return g.Host(g.Origin(next)) }

func quoteOrigin(o string) string {
	if o == "" {
		return "a page with no Origin"
	}
	return strconv.Quote(o)
}

// ReadJSON reads a POST's body: it must be Content-Type application/json
// (else 415 unsupported_media_type) and at most max bytes (else 413
// too_large). On a refusal it has answered, and returns false.
func ReadJSON(w http.ResponseWriter, r *http.Request, max int64, what string) ([]byte, bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		Error(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "send "+what+" as Content-Type: application/json")
		return nil, false
	}
	tooLarge := func() {
		Error(w, http.StatusRequestEntityTooLarge, "too_large", "the body is larger than "+strconv.FormatInt(max, 10)+" bytes (-max-body)")
	}
	if r.ContentLength > max {
		tooLarge()
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooLarge()
		} else {
			Error(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
		}
		return nil, false
	}
	return body, true
}

// Error answers with a JSON error: {"error": message, "code": code}, the
// code a stable token a client can branch on.
func Error(w http.ResponseWriter, status int, code, msg string) {
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

// Timeouts of NewServer: a client that sends its request slowly is cut
// off; a stream, once started, is not (its writes have their own deadline,
// FrameWriteTimeout, for a client that stops reading).
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second // the whole request, body included
	IdleTimeout       = 60 * time.Second
	FrameWriteTimeout = 30 * time.Second
	MaxHeaderBytes    = 64 << 10
)

// NewServer is an http.Server for h with those timeouts. There is no
// WriteTimeout: a run streams for as long as it lasts.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// ParseHeaderNames reads a list of header names into their canonical
// form.
func ParseHeaderNames(list []string) ([]string, error) {
	var out []string
	for _, n := range list {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		for _, c := range n {
			if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return nil, errors.New(strconv.Quote(n) + " is not a header name")
			}
		}
		out = append(out, http.CanonicalHeaderKey(n))
	}
	return out, nil
}

// SplitList reads a comma-separated flag.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
