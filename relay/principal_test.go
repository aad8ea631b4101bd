package relay

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/agui-reducer/agui/relay/store/memstore"
)

// issuer is an identity provider of a test: keys generated here, its key
// set served on loopback by a JWKS endpoint, rotated at will.
type issuer struct {
	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	keys    map[string]any // kid → private key (*rsa.PrivateKey, *ecdsa.PrivateKey)
	served  []string       // the kids the set holds
	fetches atomic.Int64
}

func newIssuer(t testing.TB) *issuer {
	is := &issuer{t: t, keys: map[string]any{}}
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		is.fetches.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		for _, kid := range is.served {
			set.Keys = append(set.Keys, jwk(kid, is.keys[kid]))
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(is.srv.Close)
	return is
}

// add makes a key of kind "rsa" or "ec" named kid, served when serve.
func (is *issuer) add(kid, kind string, serve bool) {
	var k any
	var err error
	switch kind {
	case "rsa":
		k, err = rsa.GenerateKey(rand.Reader, 2048)
	case "ec":
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		is.t.Fatal(err)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid] = k
	if serve {
		is.served = append(is.served, kid)
	}
}

// serve replaces the kids the set holds (a rotation).
func (is *issuer) serve(kids ...string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.served = kids
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwk is the public JWK of a private key.
func jwk(kid string, k any) map[string]string {
	switch k := k.(type) {
	case *rsa.PrivateKey:
		return map[string]string{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
			"n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())}
	case *ecdsa.PrivateKey:
		pub, _ := k.PublicKey.ECDH()
		b := pub.Bytes() // 0x04 || X || Y
		return map[string]string{"kty": "EC", "kid": kid, "use": "sig", "alg": "ES256", "crv": "P-256",
			"x": b64(b[1:33]), "y": b64(b[33:])}
	}
	panic("key kind")
}

const (
	testIssuer   = "https://id.example/"
	testAudience = "agui-relay"
)

// claims are a valid token's claims for sub, changed by edit.
func claims(sub string, edit func(jwt.MapClaims)) jwt.MapClaims {
	now := time.Now()
	c := jwt.MapClaims{"sub": sub, "iss": testIssuer, "aud": testAudience,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		"jti": randomKey(8)} // two tokens of one user differ, as refreshed ones do
	if edit != nil {
		edit(c)
	}
	return c
}

// token signs c with the key kid.
func (is *issuer) token(kid string, c jwt.MapClaims) string {
	is.mu.Lock()
	k := is.keys[kid]
	is.mu.Unlock()
	var m jwt.SigningMethod = jwt.SigningMethodRS256
	if _, ok := k.(*ecdsa.PrivateKey); ok {
		m = jwt.SigningMethodES256
	}
	tok := jwt.NewWithClaims(m, c)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(k)
	if err != nil {
		is.t.Fatal(err)
	}
	return s
}

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// TestPrincipal: with a JWKS, threads and runs belong to the token's
// subject: a refreshed token (another jti, iat and exp; signed by a key
// the issuer rotated in) reads the thread and resumes the run; another
// subject gets nothing; a token expired, not yet valid, for another
// issuer or audience, forged or unsigned gets 401 and no data.
func TestPrincipal(t *testing.T) {
	is := newIssuer(t)
	is.add("rsa-1", "rsa", true)
	is.add("ec-2", "ec", false)
	is.add("stranger", "rsa", false) // never served
	a := &fakeAgent{n: 10, gate: make(chan struct{})}
	up := newUpstream(t, a)
	_, rs := newRelay(t, up.URL, nil, func(c *Config) {
		c.AuthJWKS, c.AuthIssuer, c.AuthAudience = is.srv.URL+"/jwks.json", testIssuer, testAudience
	})
	alice := bearer(is.token("rsa-1", claims("alice", nil)))
	resp := post(t, rs.URL, runInput("t1", "r1", "hello"), alice)
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("alice's run: %d %s", resp.StatusCode, b)
	}
	fs := readFrames(resp.Body, func(f frame) bool { return eventType(f.Data) == "TEXT_MESSAGE_START" })
	resp.Body.Close()
	if resp.Header.Get(threadKeyHeader) != "" {
		t.Fatal("a thread key with JWT auth")
	}
	last := fs[len(fs)-1].ID

	// The issuer rotates: the EC key in, the RSA key out.
	is.serve("ec-2")
	refreshed := bearer(is.token("ec-2", claims("alice", nil)))
	if _, st, body := loadThread(t, rs.URL, "t1", refreshed); st != 200 {
		t.Fatalf("a refreshed token reads the thread: %d %s", st, body)
	}

	// What must get no data, on every endpoint.
	refusals := []struct {
		name, code string
		hdr        map[string]string
	}{
		{"none", "credential_required", nil},
		{"empty bearer", "credential_invalid", map[string]string{"Authorization": "Bearer "}},
		{"garbage", "credential_invalid", bearer("not.a.token")},
		{"expired", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) {
			c["exp"] = time.Now().Add(-time.Hour).Unix()
			c["iat"] = time.Now().Add(-2 * time.Hour).Unix()
			c["nbf"] = c["iat"]
		})))},
		{"no exp", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) { delete(c, "exp") })))},
		{"not yet valid", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) {
			c["nbf"] = time.Now().Add(time.Hour).Unix()
		})))},
		{"issued in the future", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) {
			c["iat"] = time.Now().Add(time.Hour).Unix()
		})))},
		{"wrong issuer", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) { c["iss"] = "https://evil.example/" })))},
		{"wrong audience", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) { c["aud"] = "another-app" })))},
		{"no subject", "credential_invalid", bearer(is.token("ec-2", claims("alice", func(c jwt.MapClaims) { delete(c, "sub") })))},
		{"rotated-out key", "credential_invalid", bearer(is.token("rsa-1", claims("alice", nil)))},
		{"unknown key", "credential_invalid", bearer(is.token("stranger", claims("alice", nil)))},
		{"wrong key, served kid", "credential_invalid", bearer(forge(t, is, "ec-2"))},
		{"alg none", "credential_invalid", bearer(unsigned(t, claims("alice", nil)))},
		{"HS256 with the public key", "credential_invalid", bearer(confused(t, is, "rsa-1"))},
		{"tampered subject", "credential_invalid", bearer(tamper(t, is.token("ec-2", claims("bob", nil)), "alice"))},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			check := func(what string, resp *http.Response) {
				t.Helper()
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 401 || !strings.Contains(string(b), `"code":"`+c.code+`"`) ||
					resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("WWW-Authenticate") == "" ||
					strings.Contains(string(b), "hello") || strings.Contains(string(b), "data:") {
					t.Fatalf("%s: %d %s", what, resp.StatusCode, b)
				}
			}
			hdr := map[string]string{}
			for k, v := range c.hdr {
				hdr[k] = v
			}
			check("thread", get(t, rs.URL, "/threads/t1", hdr))
			check("new run", post(t, rs.URL, runInput("t1", "r2", "more"), hdr))
			hdr["Last-Event-ID"] = last
			check("resume", post(t, rs.URL, `{}`, hdr))
		})
	}

	// Another subject: a valid token, but not alice's.
	bob := bearer(is.token("ec-2", claims("bob", nil)))
	if _, st, body := loadThread(t, rs.URL, "t1", bob); st != 404 {
		t.Fatalf("bob reads alice's thread: %d %s", st, body)
	}
	resp = post(t, rs.URL, `{}`, map[string]string{"Authorization": bob["Authorization"], "Last-Event-ID": last})
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 410 {
		t.Fatalf("bob resumes alice's run: %d %s", resp.StatusCode, b)
	}

	// The refreshed token resumes the run to its end.
	go func() {
		for range 13 {
			a.gate <- struct{}{}
		}
	}()
	resp = post(t, rs.URL, `{}`, map[string]string{"Authorization": refreshed["Authorization"], "Last-Event-ID": last})
	rest := readFrames(resp.Body, nil)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(rest) == 0 || eventType(rest[len(rest)-1].Data) != "RUN_FINISHED" {
		t.Fatalf("the refreshed token resumes: %d %v", resp.StatusCode, rest)
	}
	v, st, _ := loadThread(t, rs.URL, "t1", refreshed)
	if st != 200 || len(v.Messages) != 2 {
		t.Fatalf("alice reads: %d %v", st, v)
	}
}

// forge signs a token with kid's name but a key of its own.
func forge(t testing.TB, is *issuer, kid string) string {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims("alice", nil))
	tok.Header["kid"] = kid
	s, err := tok.SignedString(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// unsigned is an "alg: none" token.
func unsigned(t testing.TB, c jwt.MapClaims) string {
	tok := jwt.NewWithClaims(jwt.SigningMethodNone, c)
	s, err := tok.SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// confused is an HS256 token whose HMAC key is the PEM of kid's public
// key (what a verifier confusing algorithms would check it with).
func confused(t testing.TB, is *issuer, kid string) string {
	is.mu.Lock()
	k := is.keys[kid].(*rsa.PrivateKey)
	is.mu.Unlock()
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims("alice", nil))
	tok.Header["kid"] = kid
	s, err := tok.SignedString(pemKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tamper replaces the subject of a signed token, keeping its signature.
func tamper(t testing.TB, tok, sub string) string {
	parts := strings.Split(tok, ".")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	json.Unmarshal(raw, &c)
	c["sub"] = sub
	b, _ := json.Marshal(c)
	parts[1] = b64(b)
	return strings.Join(parts, ".")
}

// TestPrincipalConfig: a JWKS over http off loopback is refused; a key set
// that cannot be fetched refuses tokens (401) and serves once it can.
func TestPrincipalConfig(t *testing.T) {
	up := newUpstream(t, &fakeAgent{n: 1})
	u, _ := url.Parse(up.URL)
	for _, bad := range []string{"http://id.example/jwks.json", "ftp://127.0.0.1/jwks", "jwks.json"} {
		cfg := Config{Upstream: u, AuthJWKS: bad, Store: memstore.New(), SweepEvery: -1}
		if _, err := New(cfg); err == nil {
			t.Fatalf("-auth-jwks %s accepted", bad)
		}
	}
	defer func(d time.Duration) { jwksUnknownEvery = d }(jwksUnknownEvery)
	jwksUnknownEvery = 300 * time.Millisecond
	is := newIssuer(t)
	is.add("k", "ec", false) // not served yet
	_, rs := newRelay(t, up.URL, nil, func(c *Config) { c.AuthJWKS = is.srv.URL })
	tok := bearer(is.token("k", claims("carol", nil)))
	resp := post(t, rs.URL, runInput("t1", "r1", "hi"), tok)
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("a key not served yet: %d", resp.StatusCode)
	}
	is.serve("k")
	// The unknown-kid refresh is rate limited: the key is found within
	// jwksUnknownEvery.
	waitFor(t, "the key fetched", 2*jwksUnknownEvery, func() bool {
		resp := post(t, rs.URL, runInput("t1", "r1", "hi"), tok)
		defer resp.Body.Close()
		if resp.StatusCode == 200 {
			fs := readFrames(resp.Body, nil)
			return len(fs) > 0 && eventType(fs[len(fs)-1].Data) == "RUN_FINISHED"
		}
		time.Sleep(100 * time.Millisecond)
		return false
	})
	if n := is.fetches.Load(); n > 20 {
		t.Fatalf("%d fetches of the key set: the refresh is not rate limited", n)
	}
}
