package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// TestAuthJWKS: -auth-jwks, -auth-issuer and -auth-audience as a user
// sets them: a token of the provider's key runs and reads its thread, a
// refreshed one reads it too; none, or one for another audience, gets 401.
func TestAuthJWKS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.PublicKey.ECDH()
	b := pub.Bytes()
	enc := base64.RawURLEncoding.EncodeToString
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256", "x": enc(b[1:33]), "y": enc(b[33:]),
		}}})
	}))
	defer jwks.Close()
	token := func(aud string) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"sub": "alice", "iss": "https://id.example/",
			"aud": aud, "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix(), "jti": time.Now().String()})
		tok.Header["kid"] = "k1"
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return "Bearer " + s
	}
	demo := startDemo(t, "4")
	r := startRelay(t, demo.URL, "bolt:"+filepath.Join(t.TempDir(), "relay.db"),
		"-auth-jwks", jwks.URL, "-auth-issuer", "https://id.example/", "-auth-audience", "agui-relay")
	do := func(method, path, body, auth string) (int, string) {
		req, _ := http.NewRequest(method, r.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	if st, body := do("POST", "/agent", input, token("agui-relay")); st != 200 || !strings.Contains(body, "RUN_FINISHED") {
		t.Fatalf("a run with a token: %d %.300s", st, body)
	}
	if st, body := do("GET", "/threads/t1", "", token("agui-relay")); st != 200 || !strings.Contains(body, `"content":"hello"`) {
		t.Fatalf("the thread with a refreshed token: %d %.300s", st, body)
	}
	for _, auth := range []string{"", token("another-app")} {
		if st, body := do("GET", "/threads/t1", "", auth); st != 401 || strings.Contains(body, "hello") {
			t.Fatalf("the thread with %q: %d %.300s", auth, st, body)
		}
	}
}
