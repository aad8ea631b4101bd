package memstore

import (
	"testing"

	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return New() })
}
