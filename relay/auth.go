package relay

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// Who may read what. Every request carries a credential: the user a
// verified bearer token names (principal.go), or the value of the
// configured auth header (a gateway's user header: the value is the
// user), or else a thread key the relay handed out (X-Agui-Thread-Key). The relay keeps neither, only keyed hashes (HMAC
// with the relay's secret):
//
//	owner  = H("owner", credential)        stored with threads and runs
//	thread = H("thread", owner, threadId)  the thread's key in the store
//
// So the client's threadId never reaches the store (any length costs 22
// bytes), two clients that both say "thread-1" get two threads, and a
// request with another credential derives another key and finds nothing.
// Run keys are random (96 bits) and are checked against the owner too.

const (
	threadKeyHeader = "X-Agui-Thread-Key"
	runHeader       = "X-Agui-Run"
	// threadIDHeader names the thread the relay gave a keyless run sent
	// without a threadId (keyless.go).
	threadIDHeader = "X-Agui-Thread-Id"
	// lastEventIDHeader carries, with GET /threads/{id}?view=reducer, the
	// id to resume the run going on from its start.
	lastEventIDHeader = "X-Agui-Last-Event-ID"
	// partialHeader says whether a tail=1 snapshot left messages out.
	partialHeader = "X-Agui-Partial"
	keyLen        = 22 // base64url characters of derived keys (132 bits)
	runKeyLen     = 16 // base64url characters of run keys (96 bits)
)

func (s *Server) hash(parts ...string) string {
	m := hmac.New(sha256.New, s.secret)
	for _, p := range parts {
		m.Write([]byte(strconv.Itoa(len(p))))
		m.Write([]byte{':'})
		m.Write([]byte(p))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:keyLen]
}

// credential is the request's credential and whether it has one. Without
// an auth header and without a thread key, mint says whether to make one:
// it is mintFor's key (keyless.go) when that is set and the relay takes
// keyless runs, else a random one.
func (s *Server) credential(w http.ResponseWriter, r *http.Request, mint bool, mintFor string) (owner string, ok bool) {
	if s.users != nil {
		who, err := s.users.principal(r)
		if err != nil {
			s.users.refuse(w, err)
			return "", false
		}
		return s.hash("owner", "principal", who), true
	}
	if s.cfg.AuthHeader != "" {
		v := r.Header.Get(s.cfg.AuthHeader)
		if v == "" {
			httpError(w, http.StatusUnauthorized, "credential_required", "this relay needs the "+s.cfg.AuthHeader+" header")
			return "", false
		}
		return s.hash("owner", "auth", v), true
	}
	k := r.Header.Get(threadKeyHeader)
	if k == "" && mint {
		if s.cfg.KeylessRuns && mintFor != "" {
			k = s.runOwnKey(mintFor)
		} else {
			k = randomKey(keyLen)
		}
	}
	if !validKey(k, keyLen) {
		httpError(w, http.StatusUnauthorized, "credential_required",
			"send the "+threadKeyHeader+" this relay gave with the thread's first run (22 characters)")
		return "", false
	}
	w.Header().Set(threadKeyHeader, k)
	return s.hash("owner", "key", k), true
}

func (s *Server) threadKey(owner, threadID string) string { return s.hash("thread", owner, threadID) }

// randomKey is n random base64url characters.
func randomKey(n int) string {
	b := make([]byte, (n*6+7)/8)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:n]
}

func validKey(k string, n int) bool {
	if len(k) != n {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// eventID is the SSE id of frame seq of run key.
func eventID(key string, seq int64) string { return key + ":" + strconv.FormatInt(seq, 10) }

// parseEventID reads "<run key>:<seq>".
func parseEventID(id string) (key string, seq int64, ok bool) {
	key, n, found := strings.Cut(id, ":")
	if !found || !validKey(key, runKeyLen) || n == "" || len(n) > 12 {
		return "", 0, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v < 0 || strconv.FormatInt(v, 10) != n {
		return "", 0, false
	}
	return key, v, true
}
