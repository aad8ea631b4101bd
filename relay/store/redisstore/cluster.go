package redisstore

import (
	"errors"
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// On a Redis Cluster a script may touch the keys of one slot only. The
// store's scripts touch a thread, its runs and the bookkeeping the limits
// need (bytes used, threads by last update, runs by end, runs going on),
// so threads are spread over buckets: Buckets hash tags, bucket i's tag
// chosen so that its slot is in the i-th of Buckets equal ranges of the
// 16,384 slots. A thread's keys and its runs' keys carry its bucket's tag
// ("agui:{b17}:run:<key>"), as does each bucket's bookkeeping, so every
// script runs on one slot of one shard, and a cluster whose shards hold
// equal slot ranges (as redis-cli --cluster create and rebalance make
// them) holds equal shares of the threads. What spans the buckets (the
// bytes of all threads, the least recently used ones) is read from every
// bucket in one pipeline, which the cluster client splits by shard.
//
// A reader knows a run by its key alone: on a cluster the run's thread is
// found by an index key (agui:runthread:<key>, in the slot of its own
// name), written before the run is created and deleted with it.

// Buckets is the number of buckets threads are spread over on a cluster:
// shards past that many would hold none.
const Buckets = 64

// bucketTags are the buckets' tags, "{…}:" each.
var bucketTags = func() []string {
	tags := make([]string, Buckets)
	width := 16384 / Buckets
	for i := range tags {
		for n := 0; ; n++ {
			t := "b" + strconv.Itoa(n)
			if slot := int(crc16(t) % 16384); slot/width == i {
				tags[i] = "{" + t + "}:"
				break
			}
		}
	}
	return tags
}()

// bucketOf is a thread's bucket.
func bucketOf(thread string) int {
	h := fnv.New32a()
	h.Write([]byte(thread))
	return int(h.Sum32() % Buckets)
}

// crc16 is Redis Cluster's key hash (CRC-16/XMODEM).
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// OpenCluster connects to the Redis Cluster of url:
// redis+cluster://[user:password@]host:port,host:port,…[?option=value…]
// (rediss+cluster:// for TLS; options as go-redis's ParseClusterURL
// reads them). The nodes listed are seeds: the client learns the others,
// follows MOVED and ASK redirections, and reloads the slot map after a
// failover.
func OpenCluster(u string) (*Store, error) { return openCluster(u, "agui:") }

func openCluster(u, prefix string) (*Store, error) {
	scheme, rest, _ := strings.Cut(u, "://")
	scheme = strings.TrimSuffix(scheme, "+cluster")
	rest, query, _ := strings.Cut(rest, "?")
	if strings.Contains(rest, "/") {
		return nil, errors.New("redisstore: a Redis Cluster has one database: no /DB in " + scheme + "+cluster:// URLs")
	}
	user := ""
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		user, rest = rest[:i+1], rest[i+1:]
	}
	hosts := strings.Split(rest, ",")
	if len(hosts) == 0 || hosts[0] == "" {
		return nil, errors.New("redisstore: no node in the cluster URL")
	}
	q := url.Values{}
	if query != "" {
		var err error
		if q, err = url.ParseQuery(query); err != nil {
			return nil, errors.New("redisstore: " + err.Error())
		}
	}
	for _, h := range hosts[1:] {
		q.Add("addr", h)
	}
	opt, err := redis.ParseClusterURL(scheme + "://" + user + hosts[0] + "?" + q.Encode())
	if err != nil {
		return nil, errors.New("redisstore: " + err.Error())
	}
	poolDefaults(&opt.PoolSize, &opt.PoolTimeout) // a shard's
	opt.DialTimeout = 2 * time.Second
	opt.MaxRetries = 0 // the relay retries with its own bounds
	// The client learns a new slot map from a MOVED answer, but a master
	// that died answers nothing: without a reload it would be asked until
	// the default minute's reload. A map at most a second old finds the
	// replica that took over (CLUSTER SLOTS, in the background).
	opt.ClusterStateReloadInterval = time.Second
	return New(redis.NewClusterClient(opt), prefix), nil
}
