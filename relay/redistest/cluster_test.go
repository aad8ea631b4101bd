package redistest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestCluster: the cluster serves every slot, and a failover (coordinated
// or a master killed) hands a master's slots to its replica with the
// keys it had replicated.
func TestCluster(t *testing.T) {
	c := StartCluster(t, 3, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer rdb.Close()
	for i := 0; i < 100; i++ {
		if err := rdb.Set(ctx, "k"+strconv.Itoa(i), i, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	m := c.MasterOf("k1")
	r := c.Failover(m)
	if got := c.MasterOf("k1"); got != r || r == m {
		t.Fatalf("after the failover of %s the master is %s, want %s", m, got, r)
	}
	m2 := c.MasterOf("k2")
	r2 := c.Kill(m2)
	if r2 == m2 || c.MasterOf("k2") != r2 {
		t.Fatalf("after killing %s the master is %s", m2, r2)
	}
	for i := 0; i < 100; i++ {
		v, err := rdb.Get(ctx, "k"+strconv.Itoa(i)).Int()
		if err != nil || v != i {
			t.Fatalf("k%d: %v %v", i, v, err)
		}
	}
}
