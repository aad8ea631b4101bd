package redisstore

import (
	"testing"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/storetest"
)

func TestStore(t *testing.T) {
	srv := redistest.Start(t, false)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		n++
		s.prefix = "test" + string(rune('a'+n)) + ":" // one store per test, one server
		return s
	})
}
