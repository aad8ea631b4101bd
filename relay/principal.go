package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

// Principals: with Config.AuthJWKS the credential is not a header's bytes
// but the user a signed bearer token names (Config.AuthClaim of a JWT
// whose signature a key of the JWKS verifies). A refreshed token names
// the same user, so it keeps the user's threads and runs; a token the
// relay cannot verify, or one expired, not yet valid, or meant for
// another issuer or audience, is refused with 401 before any store read.

// principalAlgs are the signature algorithms accepted: public-key ones
// only, so that a token signed with HMAC under a public key (algorithm
// confusion) or unsigned ("none") is refused whatever the key set holds.
var principalAlgs = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// principalLeeway is the clock skew tolerated on exp, nbf and iat.
const principalLeeway = 30 * time.Second

// jwksRefreshEvery is how often the key set is fetched again; a token
// whose kid is unknown fetches it at once (at most every
// jwksUnknownEvery, a variable for the tests).
const jwksRefreshEvery = 15 * time.Minute

var jwksUnknownEvery = 10 * time.Second

// principals verifies bearer tokens against a JWKS.
type principals struct {
	header string // the request header carrying the token
	claim  string
	keys   keyfunc.Keyfunc
	parser *jwt.Parser
}

// newPrincipals is nil without cfg.AuthJWKS. The key set is fetched now
// and then refreshed until ctx ends; a first fetch that fails is logged
// and retried (tokens are refused meanwhile).
func newPrincipals(ctx context.Context, cfg Config) (*principals, error) {
	if cfg.AuthJWKS == "" {
		return nil, nil
	}
	u, err := url.Parse(cfg.AuthJWKS)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("relay: the JWKS must be an https URL, got %q", cfg.AuthJWKS)
	}
	if u.Scheme == "http" && !loopbackHost(u.Hostname()) {
		// Keys fetched in the clear could be replaced on the way.
		return nil, fmt.Errorf("relay: the JWKS must be fetched over https (http only on loopback), got %q", cfg.AuthJWKS)
	}
	p := &principals{header: cfg.AuthHeader, claim: cfg.AuthClaim}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(principalAlgs), jwt.WithExpirationRequired(), jwt.WithLeeway(principalLeeway),
		jwt.WithIssuedAt(),
	}
	if cfg.AuthIssuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.AuthIssuer))
	}
	if cfg.AuthAudience != "" {
		opts = append(opts, jwt.WithAudience(cfg.AuthAudience))
	}
	p.parser = jwt.NewParser(opts...)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p.keys, err = keyfunc.NewDefaultOverrideCtx(ctx, []string{cfg.AuthJWKS}, keyfunc.Override{
		Client:      &http.Client{Timeout: 10 * time.Second},
		HTTPTimeout: 10 * time.Second,
		// A token with an unknown kid (the issuer rotated its keys)
		// fetches the set at once, at most every jwksUnknownEvery; others
		// meanwhile are refused at once rather than kept waiting.
		RefreshUnknownKID: rate.NewLimiter(rate.Every(jwksUnknownEvery), 1),
		RateLimitWaitMax:  time.Millisecond,
		RefreshInterval:   jwksRefreshEvery,
		RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
			return func(_ context.Context, err error) {
				log.Warn("fetching the JWKS failed", "url", u, "err", err)
			}
		},
	})
	if err != nil {
		return nil, errors.New("relay: -auth-jwks: " + err.Error())
	}
	return p, nil
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Why a request has no principal besides the token's own faults.
var (
	errNoToken = errors.New("no bearer token")
	errNoClaim = errors.New("the token names no user")
)

// principal is the verified claim of the request's bearer token.
func (p *principals) principal(r *http.Request) (string, error) {
	v := r.Header.Get(p.header)
	if v == "" {
		return "", errNoToken
	}
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		v = strings.TrimSpace(v[7:])
	}
	claims := jwt.MapClaims{}
	if _, err := p.parser.ParseWithClaims(v, claims, p.keys.KeyfuncCtx(r.Context())); err != nil {
		return "", err
	}
	var who string
	switch c := claims[p.claim].(type) {
	case string:
		who = c
	case float64: // a numeric user id
		who = strconv.FormatFloat(c, 'f', -1, 64)
	}
	if who == "" {
		return "", errNoClaim
	}
	return who, nil
}

// refuse answers 401 to a request whose token was refused (err).
func (p *principals) refuse(w http.ResponseWriter, err error) {
	if errors.Is(err, errNoToken) {
		w.Header().Set("WWW-Authenticate", `Bearer`)
		httpError(w, http.StatusUnauthorized, "credential_required", "this relay needs a bearer token in the "+p.header+" header")
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	httpError(w, http.StatusUnauthorized, "credential_invalid", "the bearer token was refused: "+p.problem(err))
}

// problem says briefly why a token was refused (never echoing it).
func (p *principals) problem(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return "expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "not valid yet"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "wrong issuer"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "wrong audience"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "a required claim is missing"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "malformed"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable):
		return "signature not verified"
	case errors.Is(err, errNoClaim):
		return "it names no user (claim " + strconv.Quote(p.claim) + ")"
	}
	return "invalid"
}
