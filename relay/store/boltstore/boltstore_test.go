package boltstore

import (
	"path/filepath"
	"testing"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(filepath.Join(t.TempDir(), "relay.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
