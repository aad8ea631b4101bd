package redistest

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a running Redis Cluster: redis-server processes with
// cluster mode on, each in its own directory on free loopback ports,
// joined, their slots assigned and replicas attached as redis-cli
// --cluster create does (with CLUSTER commands, so no redis-cli is
// needed), stopped when the test ends.
type Cluster struct {
	t     testing.TB
	Nodes []*Server // masters first, then their replicas
}

// nodeTimeout is the cluster-node-timeout: a master silent that long is
// failed over to a replica in about twice that.
const nodeTimeout = 1000 * time.Millisecond

// StartCluster starts masters masters, each with replicas replicas, and
// waits until the cluster is up (every slot served, every replica in
// sync).
func StartCluster(t testing.TB, masters, replicas int) *Cluster {
	t.Helper()
	require(t)
	c := &Cluster{t: t}
	n := masters * (1 + replicas)
	for i := 0; i < n; i++ {
		_, bus, _ := net.SplitHostPort(freeAddr(t))
		s := &Server{t: t, dir: t.TempDir(), Addr: freeAddr(t), args: []string{
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-port", bus,
			"--cluster-node-timeout", strconv.Itoa(int(nodeTimeout / time.Millisecond)),
			"--cluster-replica-validity-factor", "0", // a replica always may take over
			"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0",
		}}
		s.start()
		t.Cleanup(s.Stop)
		c.Nodes = append(c.Nodes, s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	per := 16384 / masters
	for i, s := range c.Nodes {
		rdb := s.client()
		must(t, rdb.Do(ctx, "CLUSTER", "SET-CONFIG-EPOCH", i+1).Err())
		if i < masters {
			end := (i+1)*per - 1
			if i == masters-1 {
				end = 16383
			}
			must(t, rdb.ClusterAddSlotsRange(ctx, i*per, end).Err())
		}
		rdb.Close()
	}
	first := c.Nodes[0].client()
	defer first.Close()
	for _, s := range c.Nodes[1:] {
		host, port, _ := net.SplitHostPort(s.Addr)
		must(t, first.Do(ctx, "CLUSTER", "MEET", host, port, s.bus()).Err())
	}
	c.wait(ctx, "every node to know every other", func(rdb *redis.Client) bool {
		nodes, err := rdb.ClusterNodes(ctx).Result()
		return err == nil && strings.Count(nodes, "\n") >= n && !strings.Contains(nodes, "handshake")
	})
	for i := masters; i < n; i++ {
		m := c.Nodes[(i-masters)/replicas].client()
		id, err := m.Do(ctx, "CLUSTER", "MYID").Text()
		m.Close()
		must(t, err)
		r := c.Nodes[i].client()
		must(t, r.ClusterReplicate(ctx, id).Err())
		r.Close()
	}
	c.wait(ctx, "the cluster to be up", func(rdb *redis.Client) bool {
		info, err := rdb.ClusterInfo(ctx).Result()
		if err != nil || !strings.Contains(info, "cluster_state:ok") {
			return false
		}
		repl, err := rdb.Info(ctx, "replication").Result()
		return err == nil && (strings.Contains(repl, "role:master") && strings.Contains(repl, "connected_slaves:"+strconv.Itoa(replicas)) ||
			strings.Contains(repl, "role:slave") && strings.Contains(repl, "master_link_status:up"))
	})
	return c
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// client is a plain client of this one node.
func (s *Server) client() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: s.Addr, DialTimeout: time.Second, MaxRetries: -1})
}

// bus is the node's cluster bus port.
func (s *Server) bus() string {
	for i, a := range s.args {
		if a == "--cluster-port" {
			return s.args[i+1]
		}
	}
	return ""
}

// wait polls every live node until ok holds on all of them.
func (c *Cluster) wait(ctx context.Context, what string, ok func(*redis.Client) bool) {
	c.t.Helper()
	for {
		all := true
		for _, s := range c.live() {
			rdb := s.client()
			good := ok(rdb)
			rdb.Close()
			if !good {
				all = false
				break
			}
		}
		if all {
			return
		}
		select {
		case <-ctx.Done():
			c.t.Fatalf("redistest: timed out waiting for %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *Cluster) live() []*Server {
	var out []*Server
	for _, s := range c.Nodes {
		if s.cmd != nil {
			out = append(out, s)
		}
	}
	return out
}

// URL is the cluster's redis+cluster:// URL, every node a seed.
func (c *Cluster) URL() string {
	var addrs []string
	for _, s := range c.Nodes {
		addrs = append(addrs, s.Addr)
	}
	return "redis+cluster://" + strings.Join(addrs, ",")
}

// Addrs are the nodes' addresses.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, s := range c.Nodes {
		out = append(out, s.Addr)
	}
	return out
}

// MasterOf is the address of the master serving key's slot now.
func (c *Cluster) MasterOf(key string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rdb := c.live()[0].client()
	defer rdb.Close()
	slot, err := rdb.ClusterKeySlot(ctx, key).Result()
	must(c.t, err)
	return c.masterOfSlot(ctx, rdb, int(slot))
}

func (c *Cluster) masterOfSlot(ctx context.Context, rdb *redis.Client, slot int) string {
	slots, err := rdb.ClusterSlots(ctx).Result()
	if err != nil {
		return ""
	}
	for _, r := range slots {
		if r.Start <= slot && slot <= r.End && len(r.Nodes) > 0 {
			return r.Nodes[0].Addr
		}
	}
	return ""
}

// node is the node at addr.
func (c *Cluster) node(addr string) *Server {
	for _, s := range c.Nodes {
		if s.Addr == addr {
			return s
		}
	}
	c.t.Fatalf("redistest: no node %s", addr)
	return nil
}

// replicaOf is the address of a live replica of the master at addr.
func (c *Cluster) replicaOf(ctx context.Context, addr string) string {
	m := c.node(addr).client()
	defer m.Close()
	id, err := m.Do(ctx, "CLUSTER", "MYID").Text()
	must(c.t, err)
	for _, s := range c.live() {
		r := s.client()
		repl, err := r.Info(ctx, "replication").Result()
		nodes, _ := r.ClusterNodes(ctx).Result()
		r.Close()
		if err == nil && strings.Contains(repl, "role:slave") {
			for _, line := range strings.Split(nodes, "\n") {
				f := strings.Fields(line)
				if len(f) > 3 && strings.Contains(f[2], "myself") && f[3] == id {
					return s.Addr
				}
			}
		}
	}
	c.t.Fatalf("redistest: no replica of %s", addr)
	return ""
}

// Failover makes a replica of the master at addr take its place with
// CLUSTER FAILOVER (the replica first catches up, so nothing is lost),
// and waits until every live node agrees. It returns the new master.
func (c *Cluster) Failover(addr string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := c.replicaOf(ctx, addr)
	rdb := c.node(r).client()
	must(c.t, rdb.ClusterFailover(ctx).Err())
	rdb.Close()
	c.waitMaster(ctx, addr, r)
	return r
}

// Kill kills the master at addr (SIGKILL: what it did not replicate yet
// is lost) and waits until a replica has taken its slots. It returns the
// new master.
func (c *Cluster) Kill(addr string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	old := c.node(addr)
	slots := c.slotsOf(ctx, addr)
	old.Stop()
	var now string
	c.wait(ctx, "a replica to take over from "+addr, func(rdb *redis.Client) bool {
		info, err := rdb.ClusterInfo(ctx).Result()
		if err != nil || !strings.Contains(info, "cluster_state:ok") {
			return false
		}
		m := c.masterOfSlot(ctx, rdb, slots)
		if m == "" || m == addr {
			return false
		}
		now = m
		return true
	})
	return now
}

// slotsOf is the first slot the master at addr serves.
func (c *Cluster) slotsOf(ctx context.Context, addr string) int {
	rdb := c.node(addr).client()
	defer rdb.Close()
	slots, err := rdb.ClusterSlots(ctx).Result()
	must(c.t, err)
	for _, r := range slots {
		if len(r.Nodes) > 0 && r.Nodes[0].Addr == addr {
			return r.Start
		}
	}
	c.t.Fatalf("redistest: %s serves no slot", addr)
	return 0
}

// waitMaster waits until every live node says newAddr serves what
// oldAddr served.
func (c *Cluster) waitMaster(ctx context.Context, oldAddr, newAddr string) {
	slot := c.slotsOfAny(ctx, oldAddr, newAddr)
	c.wait(ctx, fmt.Sprintf("%s to take over from %s", newAddr, oldAddr), func(rdb *redis.Client) bool {
		return c.masterOfSlot(ctx, rdb, slot) == newAddr
	})
}

// slotsOfAny is a slot served by oldAddr (or already by newAddr).
func (c *Cluster) slotsOfAny(ctx context.Context, oldAddr, newAddr string) int {
	rdb := c.node(newAddr).client()
	defer rdb.Close()
	slots, err := rdb.ClusterSlots(ctx).Result()
	must(c.t, err)
	for _, r := range slots {
		if len(r.Nodes) > 0 && (r.Nodes[0].Addr == oldAddr || r.Nodes[0].Addr == newAddr) {
			return r.Start
		}
	}
	c.t.Fatalf("redistest: %s serves no slot", oldAddr)
	return 0
}

// MasterWith is the address of the master holding a key that matches
// pattern (SCAN's MATCH), "" if none does.
func (c *Cluster) MasterWith(pattern string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range c.live() {
		rdb := s.client()
		repl, err := rdb.Info(ctx, "replication").Result()
		if err == nil && strings.Contains(repl, "role:master") {
			keys, err := rdb.Keys(ctx, pattern).Result()
			if err == nil && len(keys) > 0 {
				rdb.Close()
				return s.Addr
			}
		}
		rdb.Close()
	}
	return ""
}
