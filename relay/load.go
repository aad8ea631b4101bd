package relay

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Thread loads. GET /threads/{id} reads the thread and builds its answer
// whole in memory (the stored snapshot, or a view the reducer restores and
// folds: up to about -max-thread-bytes, several times over), whatever the
// answer's kind. So that many concurrent loads of large threads cannot
// multiply that without bound, a load holds one of Config.MaxLoads slots
// (default GOMAXPROCS: the work is CPU-bound) from reading the thread until
// its answer is made; writing the answer, and streaming a run going on
// (which takes a -max-conns slot), happen without it. A load that gets no
// slot within -store-timeout (or before its request ends) is answered
// 503 too_many_loads.

// loadSlot takes a load slot, waiting up to StoreTimeout, or answers 503.
// release gives it back; calling it again does nothing.
func (s *Server) loadSlot(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	select {
	case s.loads <- struct{}{}:
	default:
		t := time.NewTimer(s.cfg.StoreTimeout)
		defer t.Stop()
		select {
		case s.loads <- struct{}{}:
		case <-t.C:
			w.Header().Set("Retry-After", "1")
			httpError(w, http.StatusServiceUnavailable, "too_many_loads",
				"the relay loads "+strconv.Itoa(s.cfg.MaxLoads)+" threads already (-max-loads)")
			return nil, false
		case <-r.Context().Done():
			return nil, false
		}
	}
	var once sync.Once
	return func() { once.Do(func() { <-s.loads }) }, true
}
