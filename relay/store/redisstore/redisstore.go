package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/store"
)

// Store is a store.Store in Redis.
type Store struct {
	rdb     *redis.Client
	prefix  string
	threads sync.Map // run key → thread key, of runs seen (never changes)
}

var _ store.Store = (*Store)(nil)

// Open connects to the Redis at url (redis://[user:password@]host:port/db,
// or rediss:// for TLS). Blocking reads hold a connection each, so the
// pool is large.
func Open(url string) (*Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, errors.New("redisstore: " + err.Error())
	}
	if opt.PoolSize < 1024 {
		opt.PoolSize = 1024
	}
	opt.DialTimeout = 2 * time.Second
	opt.MaxRetries = 0 // the relay retries with its own bounds
	return New(redis.NewClient(opt), "agui:"), nil
}

// New uses rdb, with keys under prefix.
func New(rdb *redis.Client, prefix string) *Store {
	return &Store{rdb: rdb, prefix: prefix}
}

func (s *Store) Close() error { return s.rdb.Close() }

func (s *Store) k(parts ...string) string {
	out := s.prefix
	for i, p := range parts {
		if i > 0 {
			out += ":"
		}
		out += p
	}
	return out
}

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
	return answer(createScript.Run(ctx, s.rdb,
		[]string{s.k("run", r.Key), s.k("thread", r.Thread), s.k("runs", r.Thread), s.k("updated"), s.k("usage"), s.k("running")},
		r.Key, r.Thread, r.Owner, r.Producer, ms(r.Started), r.Input, ms(r.Lease), ms(r.Readers)).Result())
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
return 'ok'
`)

func (s *Store) runKeys(key, thread string) []string {
	return []string{s.k("run", key), s.k("frames", key), s.k("thread", thread), s.k("usage"), s.k("ended")}
}

// threadOf is the thread of run key (from its record).
func (s *Store) threadOf(ctx context.Context, key string) (string, error) {
	if t, ok := s.threads.Load(key); ok {
		return t.(string), nil // the scripts still check that the run exists
	}
	t, err := s.rdb.HGet(ctx, s.k("run", key), "thread").Result()
	if errors.Is(err, redis.Nil) {
		return "", store.ErrNotFound
	}
	if err == nil {
		s.threads.Store(key, t)
	}
	return t, err
}

func (s *Store) Append(ctx context.Context, key string, seq int64, data []byte, lease time.Time) error {
	thread, err := s.threadOf(ctx, key)
	if err != nil {
		return err
	}
	return answer(appendScript.Run(ctx, s.rdb, s.runKeys(key, thread)[:4], seq, data, ms(lease)).Result())
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
return 'ok'
`)

func (s *Store) Finish(ctx context.Context, key string, seq int64, data []byte, outcome string) error {
	thread, err := s.threadOf(ctx, key)
	if err != nil {
		return err
	}
	has := "0"
	if data != nil {
		has = "1"
	}
	err = answer(finishScript.Run(ctx, s.rdb, append(s.runKeys(key, thread), s.k("updated"), s.k("running")), seq, data, has, outcome, ms(time.Now()), key, thread).Result())
	if err == nil || errors.Is(err, store.ErrDone) || errors.Is(err, store.ErrNotFound) {
		s.threads.Delete(key) // no more appends
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
	v, err := renewScript.Run(ctx, s.rdb, []string{s.k("run", key)}, ms(lease)).Slice()
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
	return answer(touchScript.Run(ctx, s.rdb, []string{s.k("run", key)}, ms(at)).Result())
}

// run reads a run's record.
func (s *Store) run(ctx context.Context, key string) (*store.Run, error) {
	fields := []string{"thread", "owner", "producer", "started", "frames", "bytes", "outcome", "ended", "lease", "readers", "folded", "foldedin"}
	vals, err := s.rdb.HMGet(ctx, s.k("run", key), fields...).Result()
	if err != nil {
		return nil, err
	}
	if vals[0] == nil {
		return nil, store.ErrNotFound
	}
	m := make(map[string]string, len(fields))
	for i, f := range fields {
		m[f], _ = vals[i].(string)
	}
	n := func(f string) int64 { v, _ := strconv.ParseInt(m[f], 10, 64); return v }
	r := &store.Run{Key: key, Thread: m["thread"], Owner: m["owner"], Producer: m["producer"],
		Started: fromMS(m["started"]), Frames: n("frames"), Bytes: n("bytes"), Outcome: m["outcome"],
		Ended: fromMS(m["ended"]), Lease: fromMS(m["lease"]), Readers: fromMS(m["readers"]), Folded: m["folded"] == "1", FoldedIn: n("foldedin")}
	return r, nil
}

func (s *Store) Input(ctx context.Context, key string) ([]byte, error) {
	vals, err := s.rdb.HMGet(ctx, s.k("run", key), "thread", "input").Result()
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
	r, err := s.run(ctx, key)
	if err != nil || max <= 0 {
		return nil, r, err
	}
	stream := s.k("frames", key)
	if after < r.Frames {
		msgs, err := s.rdb.XRangeN(ctx, stream, "0-"+strconv.FormatInt(after+1, 10), "+", int64(max)).Result()
		return toFrames(msgs), r, err
	}
	if r.Done() || wait <= 0 {
		return nil, r, nil
	}
	res, err := s.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{stream, "0-" + strconv.FormatInt(after, 10)},
		Count: int64(max), Block: wait}).Result()
	if errors.Is(err, redis.Nil) {
		err = nil
	}
	if err != nil {
		return nil, r, err
	}
	var out []store.Frame
	for _, st := range res {
		out = append(out, toFrames(st.Messages)...)
	}
	if len(out) > 0 {
		// r is older than the frames; the next Read brings it up to date
		// (a caller ends a run on its record only when a Read brings no
		// frame).
		if last := out[len(out)-1].Seq; last > r.Frames {
			r.Frames = last
		}
		return out, r, nil
	}
	r, err = s.run(ctx, key) // finished meanwhile without a frame, or lease news
	if err != nil {
		return nil, nil, err
	}
	return nil, r, nil
}

func (s *Store) Thread(ctx context.Context, key string) (*store.Thread, error) {
	pipe := s.rdb.Pipeline()
	h := pipe.HGetAll(ctx, s.k("thread", key))
	runs := pipe.LRange(ctx, s.k("runs", key), 0, -1)
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
// KEYS[1], list KEYS[2], usage KEYS[3]; the prefix is P.
const dropRunLua = `
local function droprun(P, rk)
  local rb = tonumber(redis.call('HGET', P .. 'run:' .. rk, 'bytes') or '0')
  redis.call('DEL', P .. 'run:' .. rk, P .. 'frames:' .. rk)
  redis.call('LREM', KEYS[2], 0, rk)
  redis.call('ZREM', P .. 'ended', rk)
  redis.call('SREM', P .. 'running', rk)
  if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'bytes', 0 - rb) end
  redis.call('INCRBY', KEYS[3], 0 - rb)
end
`

var foldScript = redis.NewScript(dropRunLua + `
local P = ARGV[1]
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return 'notfound' end
if tonumber(v) ~= tonumber(ARGV[2]) then return 'conflict' end
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
return 'ok'
`)

func (s *Store) threadKeys(key string) []string {
	return []string{s.k("thread", key), s.k("runs", key), s.k("usage"), s.k("updated")}
}

func (s *Store) Fold(ctx context.Context, key string, version int64, snapshot []byte, folded, drop []string) error {
	args := []any{s.prefix, version, snapshot, ms(time.Now()), key, len(folded)}
	for _, f := range folded {
		args = append(args, f)
	}
	for _, d := range drop {
		args = append(args, d)
	}
	return answer(foldScript.Run(ctx, s.rdb, s.threadKeys(key), args...).Result())
}

// deleteScript deletes thread ARGV[2] if ARGV[3] is "any", or if it has no
// active run and was last updated before ARGV[3] (ms).
var deleteScript = redis.NewScript(dropRunLua + `
local P = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[4], ARGV[2])
  return 'notfound'
end
if ARGV[3] ~= 'any' then
  local t = redis.call('HMGET', KEYS[1], 'active', 'updated')
  if (t[1] and t[1] ~= '') or tonumber(t[2] or '0') >= tonumber(ARGV[3]) then return 'busy' end
end
local runs = redis.call('LRANGE', KEYS[2], 0, -1)
for _, rk in ipairs(runs) do droprun(P, rk) end
local b = tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0')
redis.call('INCRBY', KEYS[3], 0 - b)
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 'ok'
`)

func (s *Store) Delete(ctx context.Context, key string) error {
	return answer(deleteScript.Run(ctx, s.rdb, s.threadKeys(key), s.prefix, key, "any").Result())
}

// deleteIdle deletes a thread idle since before; it reports the runs it had.
func (s *Store) deleteIdle(ctx context.Context, key string, before time.Time) (bool, int, error) {
	n, _ := s.rdb.LLen(ctx, s.k("runs", key)).Result()
	err := answer(deleteScript.Run(ctx, s.rdb, s.threadKeys(key), s.prefix, key, ms(before)).Result())
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
if not r[1] then redis.call('ZREM', P .. 'ended', ARGV[2]) return 'notfound' end
if r[2] ~= '1' then return 'busy' end
droprun(P, ARGV[2])
return 'ok'
`)

// sweepBatch bounds the entries one Sweep step looks at.
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
		keys, err := s.rdb.ZRangeByScore(ctx, s.k("updated"), &redis.ZRangeBy{Min: "-inf", Max: "(" + strconv.FormatInt(ms(cut)+1, 10), Count: sweepBatch}).Result()
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
	if lim.RunTTL > 0 {
		cut := now.Add(-lim.RunTTL)
		keys, err := s.rdb.ZRangeByScore(ctx, s.k("ended"), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(ms(cut), 10), Count: sweepBatch}).Result()
		if err != nil {
			return sw, err
		}
		for _, rk := range keys {
			thread, err := s.threadOf(ctx, rk)
			if errors.Is(err, store.ErrNotFound) {
				s.rdb.ZRem(ctx, s.k("ended"), rk)
				continue
			} else if err != nil {
				return sw, err
			}
			err = answer(dropFoldedScript.Run(ctx, s.rdb, s.threadKeys(thread)[:3], s.prefix, rk).Result())
			if err == nil {
				sw.Runs++
			} else if !errors.Is(err, store.ErrBusy) && !errors.Is(err, store.ErrNotFound) {
				return sw, err
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
			n, err := s.rdb.ZCard(ctx, s.k("updated")).Result()
			return n > int64(lim.MaxThreads), err
		}
		return false, nil
	}
	for round := 0; (lim.MaxBytes > 0 || lim.MaxThreads > 0) && round < 100; round++ {
		if o, err := over(); err != nil || !o {
			return sw, err
		}
		keys, err := s.rdb.ZRange(ctx, s.k("updated"), 0, 63).Result()
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

func (s *Store) Running(ctx context.Context, max int) ([]string, error) {
	keys, _, err := s.rdb.SScan(ctx, s.k("running"), 0, "", int64(max)).Result()
	if len(keys) > max {
		keys = keys[:max]
	}
	return keys, err
}

func (s *Store) Usage(ctx context.Context) (int64, error) {
	n, err := s.rdb.Get(ctx, s.k("usage")).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

// Check reports whether Redis takes writes: a small SET (refused by a
// Redis out of memory with noeviction, a read-only replica, a failed
// persistence with stop-writes-on-bgsave-error).
func (s *Store) Check(ctx context.Context) error {
	return s.rdb.Set(ctx, s.k("probe"), time.Now().UnixMilli(), time.Minute).Err()
}
