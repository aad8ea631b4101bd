package redisstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/store"
)

// Store is a store.Store in Redis, or in a Redis Cluster.
type Store struct {
	rdb    redis.UniversalClient
	prefix string
	// tags are the hash tags of the buckets threads are spread over: ""
	// alone on one Redis (the keys of the original layout), on a cluster
	// one per range of slots (cluster.go), so that a thread, its runs and
	// the bookkeeping of its bucket share a slot and every script touches
	// one slot.
	tags    []string
	cluster bool
	threads sync.Map // run key → thread key, of runs seen (never changes)

	tail    *tail             // the notifications waiting reads sleep on (tail.go)
	appends []chan *appendReq // per committer, appends waiting for their group's commit
	failed  sync.Map          // run key → the error of an append committed after it returned
	queued  sync.Map          // run key → *atomic.Int64, the last seq queued by this process
	closing chan struct{}     // closed by Close
	retry   atomic.Int64      // how long a failing group is sent again (SetRetry)
	wg      sync.WaitGroup    // the committers
}

var _ store.Store = (*Store)(nil)

// Open connects to the Redis at url: redis://[user:password@]host:port/db,
// or rediss:// for TLS; or to a Redis Cluster:
// redis+cluster://[user:password@]host:port,host:port,… (rediss+cluster://
// for TLS), the nodes to learn the cluster from. A redis:// URL naming a
// cluster node is refused, pointing to redis+cluster://. Blocking reads
// hold a connection each, so the pool is large.
func Open(url string) (*Store, error) { return open(url, "agui:") }

// open is Open with keys under prefix.
func open(url, prefix string) (*Store, error) {
	if strings.HasPrefix(url, "redis+cluster://") || strings.HasPrefix(url, "rediss+cluster://") {
		return openCluster(url, prefix)
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, errors.New("redisstore: " + err.Error())
	}
	poolDefaults(&opt.PoolSize, &opt.PoolTimeout)
	opt.DialTimeout = 2 * time.Second
	opt.MaxRetries = 0 // the relay retries with its own bounds
	rdb := redis.NewClient(opt)
	if clusterNode(rdb) {
		rdb.Close()
		return nil, fmt.Errorf("redisstore: %s is a Redis Cluster node: use redis+cluster://%s (with more nodes, comma-separated)", opt.Addr, opt.Addr)
	}
	return New(rdb, prefix), nil
}

// clusterNode reports whether rdb answers as a cluster node (a server
// that cannot be reached is taken as not one: the relay's first request
// reports it).
func clusterNode(rdb *redis.Client) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	info, err := rdb.Info(ctx, "cluster").Result()
	return err == nil && strings.Contains(info, "cluster_enabled:1")
}

// New uses rdb, with keys under prefix: a *redis.ClusterClient keeps
// threads in hash-tagged buckets (cluster.go), any other client in the
// single-server layout.
func New(rdb redis.UniversalClient, prefix string) *Store {
	s := &Store{rdb: rdb, prefix: prefix, tags: []string{""},
		closing: make(chan struct{})}
	if _, ok := rdb.(*redis.ClusterClient); ok {
		s.cluster, s.tags = true, bucketTags
	}
	s.retry.Store(int64(DefaultRetry))
	s.tail = newTail(rdb, s.notifyChannel())
	for range committers {
		q := make(chan *appendReq, queueLen)
		s.appends = append(s.appends, q)
		s.wg.Add(1)
		go s.commit(q)
	}
	return s
}

// notifyChannel is the channel appends are announced on.
func (s *Store) notifyChannel() string { return s.prefix + "frames" }

func (s *Store) Close() error {
	close(s.closing)
	s.wg.Wait()
	s.tail.close()
	return s.rdb.Close()
}

// k is a key outside the buckets (the secret).
func (s *Store) k(name string) string { return s.prefix + name }

// tagOf is the hash tag of a thread's bucket.
func (s *Store) tagOf(thread string) string {
	if !s.cluster {
		return ""
	}
	return s.tags[bucketOf(thread)]
}

// key is key kind:id in the bucket tag.
func (s *Store) key(tag, kind, id string) string { return s.prefix + tag + kind + ":" + id }

// global is a bucket's bookkeeping key (usage, updated, ended, running).
func (s *Store) global(tag, name string) string { return s.prefix + tag + name }

// runIndex is, on a cluster, the key naming the thread of a run (its
// bucket): readers know a run by its key alone.
func (s *Store) runIndex(key string) string { return s.prefix + "runthread:" + key }

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v string) time.Time {
	n, _ := strconv.ParseInt(v, 10, 64)
	if n == 0 {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

// answer maps a script's status word to an error.
func answer(v any, err error) error {
	if err != nil {
		return err
	}
	switch v {
	case "ok":
		return nil
	case "notfound":
		return store.ErrNotFound
	case "done":
		return store.ErrDone
	case "conflict":
		return store.ErrConflict
	case "busy":
		return store.ErrBusy
	case "forbidden":
		return store.ErrForbidden
	}
	return fmt.Errorf("redisstore: unexpected answer %v", v)
}

func (s *Store) Secret(ctx context.Context, candidate []byte) ([]byte, error) {
	if _, err := s.rdb.SetNX(ctx, s.k("secret"), candidate, 0).Result(); err != nil {
		return nil, err
	}
	return s.rdb.Get(ctx, s.k("secret")).Bytes()
}

var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 'conflict' end
local o = redis.call('HGET', KEYS[2], 'owner')
if o and o ~= ARGV[3] then return 'forbidden' end
local a = redis.call('HGET', KEYS[2], 'active')
if a and a ~= '' then return 'busy' end
if not o then
  redis.call('HSET', KEYS[2], 'owner', ARGV[3], 'version', 0, 'bytes', ` + strconv.Itoa(store.ThreadOverhead) + `)
  redis.call('INCRBY', KEYS[5], ` + strconv.Itoa(store.ThreadOverhead) + `)
end
local n = string.len(ARGV[6]) + ` + strconv.Itoa(store.RunOverhead) + `
redis.call('HSET', KEYS[1], 'thread', ARGV[2], 'owner', ARGV[3], 'producer', ARGV[4], 'started', ARGV[5],
  'input', ARGV[6], 'frames', 0, 'bytes', n, 'outcome', '', 'ended', 0, 'lease', ARGV[7], 'readers', ARGV[8], 'folded', 0)
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[2], 'active', ARGV[1], 'updated', ARGV[5])
redis.call('HINCRBY', KEYS[2], 'bytes', n)
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
redis.call('INCRBY', KEYS[5], n)
redis.call('SADD', KEYS[6], ARGV[1])
return 'ok'
`)

func (s *Store) Create(ctx context.Context, r *store.Run) error {
	s.threads.Store(r.Key, r.Thread)
	if s.cluster {
		// Before the run exists, so that whoever learns its key finds it.
		if err := s.rdb.Set(ctx, s.runIndex(r.Key), r.Thread, 0).Err(); err != nil {
			return err
		}
	}
	g := s.tagOf(r.Thread)
	err := answer(createScript.Run(ctx, s.rdb,
		[]string{s.key(g, "run", r.Key), s.key(g, "thread", r.Thread), s.key(g, "runs", r.Thread), s.global(g, "updated"), s.global(g, "usage"), s.global(g, "running")},
		r.Key, r.Thread, r.Owner, r.Producer, ms(r.Started), r.Input, ms(r.Lease), ms(r.Readers)).Result())
	if err != nil && s.cluster && isAnswer(err) {
		s.rdb.Del(ctx, s.runIndex(r.Key))
	}
	return err
}

// isAnswer reports whether err is a script's answer (the script ran).
func isAnswer(err error) bool {
	for _, e := range []error{store.ErrNotFound, store.ErrDone, store.ErrConflict, store.ErrBusy, store.ErrForbidden} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// addFrame is the Lua that appends frame ARGV[1] (seq) with data ARGV[2]
// to run KEYS[1] / stream KEYS[2], counting bytes in thread KEYS[3] and
// usage KEYS[4]; f is the run's HMGET frames, outcome.
var addFrame = `
  redis.call('XADD', KEYS[2], '0-' .. ARGV[1], 'd', ARGV[2])
  local n = string.len(ARGV[2]) + ` + strconv.Itoa(store.FrameOverhead) + `
  redis.call('HSET', KEYS[1], 'frames', ARGV[1])
  redis.call('HINCRBY', KEYS[1], 'bytes', n)
  if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('HINCRBY', KEYS[3], 'bytes', n) end
  redis.call('INCRBY', KEYS[4], n)
`

var appendScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'frames', 'outcome')
if not f[1] then return 'notfound' end
if f[2] ~= '' then return 'done' end
local seq = tonumber(ARGV[1])
local frames = tonumber(f[1])
if seq <= frames then return 'ok' end
if seq ~= frames + 1 then return 'conflict' end
` + addFrame + `
redis.call('HSET', KEYS[1], 'lease', ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5] .. ':' .. ARGV[1] .. ':f\n' .. ARGV[2])
return 'ok'
`)

func (s *Store) runKeys(key, thread string) []string {
	g := s.tagOf(thread)
	return []string{s.key(g, "run", key), s.key(g, "frames", key), s.key(g, "thread", thread), s.global(g, "usage"), s.global(g, "ended")}
}

// threadOf is the thread of run key (from its record, or on a cluster
// its index).
func (s *Store) threadOf(ctx context.Context, key string) (string, error) {
	if t, ok := s.threads.Load(key); ok {
		return t.(string), nil // the scripts still check that the run exists
	}
	var t string
	var err error
	if s.cluster {
		t, err = s.rdb.Get(ctx, s.runIndex(key)).Result()
	} else {
		t, err = s.rdb.HGet(ctx, s.key("", "run", key), "thread").Result()
	}
	if errors.Is(err, redis.Nil) {
		return "", store.ErrNotFound
	}
	if err == nil {
		s.threads.Store(key, t)
	}
	return t, err
}

// runKey is the key of run key's record (kind "run") or frames
// ("frames").
func (s *Store) runKey(ctx context.Context, kind, key string) (string, error) {
	if !s.cluster {
		return s.key("", kind, key), nil
	}
	t, err := s.threadOf(ctx, key)
	if err != nil {
		return "", err
	}
	return s.key(s.tagOf(t), kind, key), nil
}

// Append queues the frame for its group's commit and returns: the group
// is committed within a round trip (tail.go), and what the commit answers
// (the run finished by a reaper, gone, or a store that failed for
// SetRetry) is the answer of the run's next Append or Finish. So a
// producer does not wait for Redis between frames, as with boltstore.
func (s *Store) Append(ctx context.Context, key string, seq int64, data []byte, lease time.Time) error {
	if err, ok := s.failed.Load(key); ok {
		if errors.Is(err.(error), store.ErrDone) || errors.Is(err.(error), store.ErrNotFound) {
			s.failed.Delete(key) // the run is over for this producer
			s.queued.Delete(key)
		}
		return err.(error)
	}
	thread, err := s.threadOf(ctx, key)
	if err != nil {
		return err
	}
	// The seq is checked against what this process queued (the script
	// checks it again against what is stored).
	a := &appendReq{run: key, tag: s.tagOf(thread), keys: s.runKeys(key, thread)[:4], args: []any{seq, data, ms(lease), key}}
	v, ok := s.queued.Load(key)
	if !ok {
		// The first append this process makes to the run waits for its
		// answer (the run may be finished, gone, or further on).
		a.done = make(chan error, 1)
		if err := s.commitWait(ctx, a); err != nil {
			return err
		}
		last := new(atomic.Int64)
		last.Store(seq)
		s.queued.Store(key, last)
		return nil
	}
	last := v.(*atomic.Int64)
	switch n := last.Load(); {
	case seq <= n:
		return nil // queued already: a retry
	case seq != n+1:
		return store.ErrConflict
	}
	if err := s.enqueue(ctx, a); err != nil {
		return err
	}
	last.Store(seq)
	return nil
}

// Flush waits until every append queued so far is committed.
func (s *Store) Flush() {
	var marks []*appendReq
	for _, q := range s.appends {
		a := &appendReq{done: make(chan error, 1)}
		select {
		case q <- a:
			marks = append(marks, a)
		case <-s.closing:
		}
	}
	for _, a := range marks {
		<-a.done
	}
}

// enqueue queues a on its run's committer (so a run's appends are
// committed in order).
func (s *Store) enqueue(ctx context.Context, a *appendReq) error {
	h := fnv.New32a()
	h.Write([]byte(a.run))
	select {
	case s.appends[h.Sum32()%committers] <- a:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closing:
		return errors.New("redisstore: closed")
	}
}

// flush waits until the appends queued for run key are committed, and
// returns the error one of them met.
func (s *Store) flush(ctx context.Context, key string) error {
	return s.commitWait(ctx, &appendReq{run: key, done: make(chan error, 1)})
}

// commitWait queues a (whose done is set) and waits until it is
// committed: the error an append of its run met, if any.
func (s *Store) commitWait(ctx context.Context, a *appendReq) error {
	if err := s.enqueue(ctx, a); err != nil {
		return err
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err, ok := s.failed.LoadAndDelete(a.run); ok {
		return err.(error)
	}
	return nil
}

var finishScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'frames', 'outcome')
if not f[1] then return 'notfound' end
if f[2] ~= '' then return 'done' end
if ARGV[3] == '1' then
  if tonumber(ARGV[1]) ~= tonumber(f[1]) + 1 then return 'conflict' end
` + addFrame + `
else
  redis.call('XADD', KEYS[2], '0-' .. (tonumber(f[1]) + 1), 'end', 1)
end
redis.call('HSET', KEYS[1], 'outcome', ARGV[4], 'ended', ARGV[5])
if redis.call('HGET', KEYS[3], 'active') == ARGV[6] then redis.call('HSET', KEYS[3], 'active', '') end
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HSET', KEYS[3], 'updated', ARGV[5])
  redis.call('ZADD', KEYS[6], ARGV[5], ARGV[7])
end
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[6])
redis.call('SREM', KEYS[7], ARGV[6])
if ARGV[3] == '1' then
  redis.call('PUBLISH', ARGV[8], ARGV[6] .. ':' .. ARGV[1] .. ':e' .. ARGV[4] .. '\n' .. ARGV[2])
else
  redis.call('PUBLISH', ARGV[8], ARGV[6] .. ':' .. (tonumber(f[1]) + 1) .. ':x' .. ARGV[4] .. '\n')
end
return 'ok'
`)

func (s *Store) Finish(ctx context.Context, key string, seq int64, data []byte, outcome string) error {
	// After the run's queued appends; an append that failed leaves a gap
	// the seq check below answers (ErrConflict), or says the run is over.
	if err := s.flush(ctx, key); err != nil && !errors.Is(err, store.ErrConflict) && !isNetwork(err) {
		return err
	}
	thread, err := s.threadOf(ctx, key)
	if err != nil {
		return err
	}
	has := "0"
	if data != nil {
		has = "1"
	}
	g := s.tagOf(thread)
	err = answer(finishScript.Run(ctx, s.rdb, append(s.runKeys(key, thread), s.global(g, "updated"), s.global(g, "running")), seq, data, has, outcome, ms(time.Now()), key, thread, s.notifyChannel()).Result())
	if err == nil || errors.Is(err, store.ErrDone) || errors.Is(err, store.ErrNotFound) {
		s.threads.Delete(key) // no more appends
		s.queued.Delete(key)
	}
	return err
}

var renewScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'outcome', 'readers')
if not f[1] then return {'notfound', '0'} end
if f[1] ~= '' then return {'done', f[2]} end
redis.call('HSET', KEYS[1], 'lease', ARGV[1])
return {'ok', f[2]}
`)

func (s *Store) Renew(ctx context.Context, key string, lease time.Time) (time.Time, error) {
	rk, err := s.runKey(ctx, "run", key)
	if err != nil {
		return time.Time{}, err
	}
	v, err := renewScript.Run(ctx, s.rdb, []string{rk}, ms(lease)).Slice()
	if err != nil {
		return time.Time{}, err
	}
	if len(v) != 2 {
		return time.Time{}, errors.New("redisstore: unexpected renew answer")
	}
	r, _ := v[1].(string)
	return fromMS(r), answer(v[0], nil)
}

var touchScript = redis.NewScript(`
local r = redis.call('HGET', KEYS[1], 'readers')
if not r then return 'notfound' end
if tonumber(ARGV[1]) > tonumber(r) then redis.call('HSET', KEYS[1], 'readers', ARGV[1]) end
return 'ok'
`)

func (s *Store) Touch(ctx context.Context, key string, at time.Time) error {
	rk, err := s.runKey(ctx, "run", key)
	if err != nil {
		return err
	}
	return answer(touchScript.Run(ctx, s.rdb, []string{rk}, ms(at)).Result())
}

// runFields are the fields of a run's record that Read returns.
var runFields = []string{"thread", "owner", "producer", "started", "frames", "bytes", "outcome", "ended", "lease", "readers", "folded", "foldedin"}

// run reads a run's record.
func (s *Store) run(ctx context.Context, key string) (*store.Run, error) {
	rk, err := s.runKey(ctx, "run", key)
	if err != nil {
		return nil, err
	}
	vals, err := s.rdb.HMGet(ctx, rk, runFields...).Result()
	if err != nil {
		return nil, err
	}
	return s.runFrom(key, vals)
}

// runFrom is the run of an HMGET of runFields.
func (s *Store) runFrom(key string, vals []any) (*store.Run, error) {
	if len(vals) != len(runFields) || vals[0] == nil {
		return nil, store.ErrNotFound
	}
	m := make(map[string]string, len(runFields))
	for i, f := range runFields {
		m[f], _ = vals[i].(string)
	}
	n := func(f string) int64 { v, _ := strconv.ParseInt(m[f], 10, 64); return v }
	r := &store.Run{Key: key, Thread: m["thread"], Owner: m["owner"], Producer: m["producer"],
		Started: fromMS(m["started"]), Frames: n("frames"), Bytes: n("bytes"), Outcome: m["outcome"],
		Ended: fromMS(m["ended"]), Lease: fromMS(m["lease"]), Readers: fromMS(m["readers"]), Folded: m["folded"] == "1", FoldedIn: n("foldedin")}
	return r, nil
}

func (s *Store) Input(ctx context.Context, key string) ([]byte, error) {
	rk, err := s.runKey(ctx, "run", key)
	if err != nil {
		return nil, err
	}
	vals, err := s.rdb.HMGet(ctx, rk, "thread", "input").Result()
	if err != nil {
		return nil, err
	}
	if vals[0] == nil {
		return nil, store.ErrNotFound
	}
	in, _ := vals[1].(string)
	if in == "" {
		return nil, nil
	}
	return []byte(in), nil
}

func toFrames(msgs []redis.XMessage) []store.Frame {
	out := make([]store.Frame, 0, len(msgs))
	for _, m := range msgs {
		_, seq, _ := parseID(m.ID)
		d, ok := m.Values["d"].(string)
		if !ok {
			continue // the end marker of a run finished without a last frame
		}
		out = append(out, store.Frame{Seq: seq, Data: []byte(d)})
	}
	return out
}

func parseID(id string) (int64, int64, bool) {
	for i := 0; i < len(id); i++ {
		if id[i] == '-' {
			a, e1 := strconv.ParseInt(id[:i], 10, 64)
			b, e2 := strconv.ParseInt(id[i+1:], 10, 64)
			return a, b, e1 == nil && e2 == nil
		}
	}
	return 0, 0, false
}

func (s *Store) Read(ctx context.Context, key string, after int64, max int, wait time.Duration) ([]store.Frame, *store.Run, error) {
	if max <= 0 {
		r, err := s.run(ctx, key)
		return nil, r, err
	}
	if wait <= 0 {
		return s.readNow(ctx, key, after, max)
	}
	return s.waitRead(ctx, key, after, max, wait)
}

func (s *Store) Thread(ctx context.Context, key string) (*store.Thread, error) {
	g := s.tagOf(key)
	pipe := s.rdb.Pipeline()
	h := pipe.HGetAll(ctx, s.key(g, "thread", key))
	runs := pipe.LRange(ctx, s.key(g, "runs", key), 0, -1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	m := h.Val()
	if len(m) == 0 {
		return nil, store.ErrNotFound
	}
	n := func(f string) int64 { v, _ := strconv.ParseInt(m[f], 10, 64); return v }
	t := &store.Thread{Key: key, Owner: m["owner"], Version: n("version"), Runs: runs.Val(), Active: m["active"],
		Bytes: n("bytes"), Updated: fromMS(m["updated"])}
	if sn, ok := m["snapshot"]; ok && sn != "" {
		t.Snapshot = []byte(sn)
	}
	return t, nil
}

// dropRunLua removes run rk (key string) of the thread whose hash is
// KEYS[1], list KEYS[2], usage KEYS[3]; the prefix (with the bucket's
// tag) is P. The keys of the runs it drops go to dropped, which the
// scripts return after their status word (a cluster's run index is
// deleted after them).
const dropRunLua = `
local dropped = {}
local function droprun(P, rk)
  local rb = tonumber(redis.call('HGET', P .. 'run:' .. rk, 'bytes') or '0')
  redis.call('DEL', P .. 'run:' .. rk, P .. 'frames:' .. rk)
  redis.call('LREM', KEYS[2], 0, rk)
  redis.call('ZREM', P .. 'ended', rk)
  redis.call('SREM', P .. 'running', rk)
  if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'bytes', 0 - rb) end
  redis.call('INCRBY', KEYS[3], 0 - rb)
  table.insert(dropped, rk)
end
local function reply(status)
  local out = {status}
  for _, rk in ipairs(dropped) do table.insert(out, rk) end
  return out
end
`

var foldScript = redis.NewScript(dropRunLua + `
local P = ARGV[1]
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return reply('notfound') end
if tonumber(v) ~= tonumber(ARGV[2]) then return reply('conflict') end
local old = string.len(redis.call('HGET', KEYS[1], 'snapshot') or '')
local d = string.len(ARGV[3]) - old
redis.call('HSET', KEYS[1], 'snapshot', ARGV[3], 'version', tonumber(v) + 1, 'updated', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'bytes', d)
redis.call('INCRBY', KEYS[3], d)
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
local nf = tonumber(ARGV[6])
for i = 1, nf do
  local rk = ARGV[6 + i]
  if redis.call('HGET', P .. 'run:' .. rk, 'thread') == ARGV[5] then
    redis.call('HSET', P .. 'run:' .. rk, 'folded', 1, 'foldedin', tonumber(v) + 1)
  end
end
for i = 7 + nf, #ARGV do
  local rk = ARGV[i]
  local r = redis.call('HMGET', P .. 'run:' .. rk, 'thread', 'folded')
  if r[1] == ARGV[5] and r[2] == '1' then droprun(P, rk) end
end
return reply('ok')
`)

// threadKeys are the keys of thread key's scripts, and the prefix of its
// bucket.
func (s *Store) threadKeys(key string) ([]string, string) {
	g := s.tagOf(key)
	return []string{s.key(g, "thread", key), s.key(g, "runs", key), s.global(g, "usage"), s.global(g, "updated")}, s.prefix + g
}

// dropped reads a script's answer: its status word, then the keys of the
// runs it dropped, whose index a cluster deletes.
func (s *Store) dropped(ctx context.Context, v any, err error) error {
	if err != nil {
		return err
	}
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return fmt.Errorf("redisstore: unexpected answer %v", v)
	}
	if len(a) > 1 {
		pipe := s.rdb.Pipeline()
		for _, rk := range a[1:] {
			k, _ := rk.(string)
			s.threads.Delete(k)
			if s.cluster {
				pipe.Del(ctx, s.runIndex(k)) // one key a command: they are in other slots
			}
		}
		if s.cluster {
			pipe.Exec(ctx) // an index left behind names a run that is gone: found as such
		}
	}
	return answer(a[0], nil)
}

func (s *Store) Fold(ctx context.Context, key string, version int64, snapshot []byte, folded, drop []string) error {
	keys, p := s.threadKeys(key)
	args := []any{p, version, snapshot, ms(time.Now()), key, len(folded)}
	for _, f := range folded {
		args = append(args, f)
	}
	for _, d := range drop {
		args = append(args, d)
	}
	v, err := foldScript.Run(ctx, s.rdb, keys, args...).Result()
	return s.dropped(ctx, v, err)
}

// deleteScript deletes thread ARGV[2] if ARGV[3] is "any", or if it has no
// active run and was last updated before ARGV[3] (ms).
var deleteScript = redis.NewScript(dropRunLua + `
local P = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[4], ARGV[2])
  return reply('notfound')
end
if ARGV[3] ~= 'any' then
  local t = redis.call('HMGET', KEYS[1], 'active', 'updated')
  if (t[1] and t[1] ~= '') or tonumber(t[2] or '0') >= tonumber(ARGV[3]) then return reply('busy') end
end
local runs = redis.call('LRANGE', KEYS[2], 0, -1)
for _, rk in ipairs(runs) do droprun(P, rk) end
local b = tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0')
redis.call('INCRBY', KEYS[3], 0 - b)
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return reply('ok')
`)

func (s *Store) Delete(ctx context.Context, key string) error {
	keys, p := s.threadKeys(key)
	v, err := deleteScript.Run(ctx, s.rdb, keys, p, key, "any").Result()
	return s.dropped(ctx, v, err)
}

// deleteIdle deletes a thread idle since before; it reports the runs it had.
func (s *Store) deleteIdle(ctx context.Context, key string, before time.Time) (bool, int, error) {
	keys, p := s.threadKeys(key)
	n, _ := s.rdb.LLen(ctx, keys[1]).Result()
	v, err := deleteScript.Run(ctx, s.rdb, keys, p, key, ms(before)).Result()
	err = s.dropped(ctx, v, err)
	switch {
	case err == nil:
		return true, int(n), nil
	case errors.Is(err, store.ErrBusy), errors.Is(err, store.ErrNotFound):
		return false, 0, nil
	}
	return false, 0, err
}

var dropFoldedScript = redis.NewScript(dropRunLua + `
local P = ARGV[1]
local r = redis.call('HMGET', P .. 'run:' .. ARGV[2], 'thread', 'folded')
if not r[1] then redis.call('ZREM', P .. 'ended', ARGV[2]) return reply('notfound') end
if r[2] ~= '1' then return reply('busy') end
droprun(P, ARGV[2])
return reply('ok')
`)

// sweepBatch bounds the entries one Sweep step looks at (in each bucket).
const sweepBatch = 500

func (s *Store) Sweep(ctx context.Context, now time.Time, lim store.Limits) (store.Swept, error) {
	var sw store.Swept
	before, err := s.Usage(ctx)
	if err != nil {
		return sw, err
	}
	defer func() {
		if after, err := s.Usage(ctx); err == nil {
			sw.Bytes = before - after
		}
	}()
	if lim.Retention > 0 {
		cut := now.Add(-lim.Retention)
		for _, g := range s.tags {
			keys, err := s.rdb.ZRangeByScore(ctx, s.global(g, "updated"), &redis.ZRangeBy{Min: "-inf", Max: "(" + strconv.FormatInt(ms(cut)+1, 10), Count: sweepBatch}).Result()
			if err != nil {
				return sw, err
			}
			for _, k := range keys {
				ok, n, err := s.deleteIdle(ctx, k, cut.Add(time.Millisecond))
				if err != nil {
					return sw, err
				}
				if ok {
					sw.Threads++
					sw.Runs += n
				}
			}
		}
	}
	if lim.RunTTL > 0 {
		cut := now.Add(-lim.RunTTL)
		for _, g := range s.tags {
			keys, err := s.rdb.ZRangeByScore(ctx, s.global(g, "ended"), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(ms(cut), 10), Count: sweepBatch}).Result()
			if err != nil {
				return sw, err
			}
			for _, rk := range keys {
				thread, err := s.threadOf(ctx, rk)
				if errors.Is(err, store.ErrNotFound) {
					s.rdb.ZRem(ctx, s.global(g, "ended"), rk)
					continue
				} else if err != nil {
					return sw, err
				}
				keys, p := s.threadKeys(thread)
				v, err := dropFoldedScript.Run(ctx, s.rdb, keys[:3], p, rk).Result()
				err = s.dropped(ctx, v, err)
				if err == nil {
					sw.Runs++
				} else if !errors.Is(err, store.ErrBusy) && !errors.Is(err, store.ErrNotFound) {
					return sw, err
				}
			}
		}
	}
	over := func() (bool, error) {
		used, err := s.Usage(ctx)
		if err != nil {
			return false, err
		}
		if lim.MaxBytes > 0 && used > lim.MaxBytes {
			return true, nil
		}
		if lim.MaxThreads > 0 {
			n, err := s.threadCount(ctx)
			return n > int64(lim.MaxThreads), err
		}
		return false, nil
	}
	for round := 0; (lim.MaxBytes > 0 || lim.MaxThreads > 0) && round < 100; round++ {
		if o, err := over(); err != nil || !o {
			return sw, err
		}
		keys, err := s.leastRecent(ctx, 64)
		if err != nil || len(keys) == 0 {
			return sw, err
		}
		progress := false
		for _, k := range keys {
			ok, n, err := s.deleteIdle(ctx, k, now.Add(time.Hour))
			if err != nil {
				return sw, err
			}
			if ok {
				progress = true
				sw.Threads++
				sw.Runs += n
				if o, err := over(); err != nil || !o {
					return sw, err
				}
			}
		}
		if !progress {
			break
		}
	}
	return sw, nil
}

// threadCount is the number of threads, all buckets together.
func (s *Store) threadCount(ctx context.Context) (int64, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.IntCmd, len(s.tags))
	for i, g := range s.tags {
		cmds[i] = pipe.ZCard(ctx, s.global(g, "updated"))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, err
	}
	var n int64
	for _, c := range cmds {
		n += c.Val()
	}
	return n, nil
}

// leastRecent are the n threads least recently updated, all buckets
// together (each bucket's oldest n, merged).
func (s *Store) leastRecent(ctx context.Context, n int64) ([]string, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.ZSliceCmd, len(s.tags))
	for i, g := range s.tags {
		cmds[i] = pipe.ZRangeWithScores(ctx, s.global(g, "updated"), 0, n-1)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	var all []redis.Z
	for _, c := range cmds {
		all = append(all, c.Val()...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score < all[j].Score })
	if int64(len(all)) > n {
		all = all[:n]
	}
	out := make([]string, len(all))
	for i, z := range all {
		out[i], _ = z.Member.(string)
	}
	return out, nil
}

func (s *Store) Running(ctx context.Context, max int) ([]string, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.ScanCmd, len(s.tags))
	for i, g := range s.tags {
		cmds[i] = pipe.SScan(ctx, s.global(g, "running"), 0, "", int64(max))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	var keys []string
	for _, c := range cmds {
		k, _ := c.Val()
		keys = append(keys, k...)
		if len(keys) >= max {
			return keys[:max], nil
		}
	}
	return keys, nil
}

func (s *Store) Usage(ctx context.Context) (int64, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(s.tags))
	for i, g := range s.tags {
		cmds[i] = pipe.Get(ctx, s.global(g, "usage"))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, err
	}
	var n int64
	for _, c := range cmds {
		v, err := c.Int64()
		if err != nil && !errors.Is(err, redis.Nil) {
			return 0, err
		}
		n += v
	}
	return n, nil
}

// Check reports whether Redis takes writes: a small SET (refused by a
// Redis out of memory with noeviction, a read-only replica, a failed
// persistence with stop-writes-on-bgsave-error).
func (s *Store) Check(ctx context.Context) error {
	return s.rdb.Set(ctx, s.k("probe"), time.Now().UnixMilli(), time.Minute).Err()
}
