package relay

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/boltstore"
	"github.com/agui-reducer/agui/relay/store/memstore"
	"github.com/agui-reducer/agui/relay/store/redisstore"
)

// OpenStore opens the store a -store flag names: "bolt:PATH" (one
// machine, durable), "redis://HOST:PORT/DB" or "rediss://…" (many
// instances), "redis+cluster://HOST:PORT,HOST:PORT" or
// "rediss+cluster://…" (many instances on a Redis Cluster), "memory:"
// (nothing kept past the process).
func OpenStore(v string) (store.Store, error) {
	switch {
	case v == "memory:" || v == "memory":
		return memstore.New(), nil
	case strings.HasPrefix(v, "bolt:"):
		return boltstore.Open(strings.TrimPrefix(v, "bolt:"))
	case strings.HasPrefix(v, "redis://"), strings.HasPrefix(v, "rediss://"),
		strings.HasPrefix(v, "redis+cluster://"), strings.HasPrefix(v, "rediss+cluster://"):
		return redisstore.Open(v)
	}
	return nil, fmt.Errorf("-store: want bolt:PATH, redis://HOST:PORT/DB, redis+cluster://HOST:PORT,HOST:PORT or memory:, got %q", v)
}

// ParseUpstream reads an -upstream flag: the agent's http(s) URL.
func ParseUpstream(v string) (*url.URL, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("-upstream must be an http(s) URL, got %q", v)
	}
	return u, nil
}

// RedactStore is a -store value fit for a log: a password in it hidden.
func RedactStore(v string) string {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return v
	}
	// By hand: a cluster URL's host list is no URL host.
	auth := rest
	if i := strings.IndexAny(auth, "/?"); i >= 0 {
		auth = auth[:i]
	}
	at := strings.LastIndex(auth, "@")
	if at < 0 {
		return v
	}
	user, _, hasPass := strings.Cut(auth[:at], ":")
	if !hasPass {
		return v
	}
	return scheme + "://" + user + ":xxxxx" + rest[at:]
}
