package relay

import (
	"path/filepath"
	"testing"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/boltstore"
	"github.com/agui-reducer/agui/relay/store/memstore"
	"github.com/agui-reducer/agui/relay/store/redisstore"
)

// backends are the stores the server tests run on: each returns an empty
// store, closed when the test ends.
var backends = []struct {
	name string
	open func(t testing.TB) store.Store
}{
	{"memory", func(t testing.TB) store.Store { return memstore.New() }},
	{"bolt", func(t testing.TB) store.Store {
		s, err := boltstore.Open(filepath.Join(t.TempDir(), "relay.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"redis", func(t testing.TB) store.Store {
		srv := redistest.Start(t, false)
		s, err := redisstore.Open(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
}

// eachBackend runs f on every backend.
func eachBackend(t *testing.T, f func(t *testing.T, open func(t testing.TB) store.Store)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.open) })
	}
}
