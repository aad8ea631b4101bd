package httpguard

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
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
		Vary(h, "Origin")
		allowed := origin != "" && g.Origins.Allows(origin)
		if r.Method == http.MethodOptions {
			Vary(h, "Access-Control-Request-Method")
			Vary(h, "Access-Control-Request-Headers")
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

// Vary adds name to h's Vary header unless it names it already (in any
// case, in any of its values): a request that passes two guards, a server's
// and then its embedded relay's, is answered with each name once.
func Vary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// Handler is Host(Origin(next)).
func (g *Guard) Handler(next http.Handler) http.Handler { return g.Host(g.Origin(next)) }

func quoteOrigin(o string) string {
	if o == "" {
		return "a page with no Origin"
	}
	return strconv.Quote(o)
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
