package redisstore

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/redistest"
	"github.com/agui-reducer/agui/relay/store"
	"github.com/agui-reducer/agui/relay/store/storetest"
)

func TestStore(t *testing.T) {
	srv := redistest.Start(t, false)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		n++
		s, err := open(srv.URL(), "test"+string(rune('a'+n))+":") // one store per test, one server
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestClusterStore: the shared suite on a Redis Cluster (3 masters, 3
// replicas).
func TestClusterStore(t *testing.T) {
	c := redistest.StartCluster(t, 3, 1)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		n++
		s, err := open(c.URL(), "test"+string(rune('a'+n))+":")
		if err != nil {
			t.Fatal(err)
		}
		if !s.cluster {
			t.Fatal("a cluster URL opened a single-server store")
		}
		return s
	})

	// The buckets' tags are Redis's slots: bucket i in the i-th range, so
	// that equal slot ranges hold equal shares of the threads.
	rdb := redis.NewClient(&redis.Options{Addr: c.Addrs()[0]})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, tag := range bucketTags {
		slot, err := rdb.ClusterKeySlot(ctx, "agui:"+tag+"run:x").Result()
		if err != nil {
			t.Fatal(err)
		}
		if int(slot) != int(crc16(strings.Trim(tag, "{}:"))%16384) || int(slot)/(16384/Buckets) != i {
			t.Fatalf("bucket %d (%s): slot %d", i, tag, slot)
		}
	}

	// A redis:// URL naming a cluster node says what to use instead.
	if _, err := Open("redis://" + c.Addrs()[0] + "/0"); err == nil || !strings.Contains(err.Error(), "redis+cluster://") {
		t.Fatalf("a cluster node as redis://: %v", err)
	}
	for _, bad := range []string{"redis+cluster://" + c.Addrs()[0] + "/0", "redis+cluster://"} {
		if _, err := Open(bad); err == nil {
			t.Fatalf("%s opened", bad)
		}
	}
}

// TestBuckets: threads spread evenly over the buckets.
func TestBuckets(t *testing.T) {
	var count [Buckets]int
	for i := 0; i < 64000; i++ {
		count[bucketOf("thread-"+strconv.Itoa(i))]++
	}
	for i, n := range count {
		if n < 800 || n > 1200 {
			t.Fatalf("bucket %d holds %d of 64,000 threads", i, n)
		}
	}
}
