package redisstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-reducer/agui/relay/store"
)

// Appends are group-committed: Append queues a frame and returns, and the
// appends queued at a moment go to Redis in one pipeline, one script call
// a bucket, a run's frames together (as boltstore commits them in one
// transaction), so under load a frame costs a fraction of a round trip and
// a producer does not wait for Redis between frames.

// poolDefaults sizes a connection pool: no command blocks (streams wait on
// the subscription), so a few connections serve any number of streams; a
// burst of commands waits for one rather than failing (the relay bounds
// the wait with -store-timeout). A URL's pool_size is kept.
func poolDefaults(size *int, timeout *time.Duration) {
	if *size == 0 {
		*size = 64
	}
	*timeout = 10 * time.Second
}

// appendReq is one append queued for its group's commit, or without keys
// a marker; done, when set, is closed when it and what was queued before
// it are committed.
type appendReq struct {
	run  string
	tag  string // the bucket's: a group is one script call a bucket
	keys []string
	args []any
	done chan error
}

// committers is the number of groups in flight at once (a run's appends
// all go to one, in order); maxGroup bounds a group, queueLen a
// committer's queue.
const (
	committers = 4
	maxGroup   = 256
	queueLen   = 4096
)

// DefaultRetry is how long a group that fails to reach Redis is sent
// again before its appends fail (SetRetry).
const DefaultRetry = 10 * time.Second

// SetRetry sets how long a group of appends that fails to reach Redis is
// sent again (the relay's -store-timeout): an outage shorter than that
// loses no frame.
func (s *Store) SetRetry(d time.Duration) {
	if d > 0 {
		s.retry.Store(int64(d))
	}
}

// isNetwork reports whether err is a failure to reach Redis rather than
// an answer.
func isNetwork(err error) bool {
	if err == nil || isAnswer(err) {
		return false
	}
	var re redis.Error
	return !errors.As(err, &re) || redis.HasErrorPrefix(err, "TRYAGAIN") || redis.HasErrorPrefix(err, "CLUSTERDOWN") ||
		redis.HasErrorPrefix(err, "LOADING") || redis.HasErrorPrefix(err, "READONLY") || redis.HasErrorPrefix(err, "MASTERDOWN")
}

// appendGroupScript appends the frames of a group (in one bucket, a
// run's appends together and in order): for append i, KEYS[4i-3..4i] are
// the run, its frames, its thread and the bucket's usage, ARGV[4i-3..4i]
// the seq, data, lease and run key; the last ARGV is the channel. It
// answers a status word per append, as appendScript does, and updates
// each run's record, its thread's bytes and the usage once.
var appendGroupScript = redis.NewScript(`
local ch = ARGV[#ARGV]
local out = {}
local n = #KEYS / 4
local used = 0
local i = 1
while i <= n do
  local k = (i - 1) * 4
  local run, frames, thread = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local f = redis.call('HMGET', run, 'frames', 'outcome')
  local stored = tonumber(f[1] or '0')
  local bytes, lease, first, parts = 0, nil, nil, {}
  while i <= n and KEYS[(i - 1) * 4 + 1] == run do
    local a = (i - 1) * 4
    local seq, data = tonumber(ARGV[a + 1]), ARGV[a + 2]
    if not f[1] then out[i] = 'notfound'
    elseif f[2] ~= '' then out[i] = 'done'
    elseif seq <= stored then out[i] = 'ok'
    elseif seq ~= stored + 1 then out[i] = 'conflict'
    else
      redis.call('XADD', frames, '0-' .. seq, 'd', data)
      first = first or seq
      table.insert(parts, string.len(data) .. ':' .. data)
      stored = seq
      bytes = bytes + string.len(data) + ` + strconv.Itoa(store.FrameOverhead) + `
      lease = ARGV[a + 3]
      out[i] = 'ok'
    end
    i = i + 1
  end
  if lease then
    -- One message for the run's frames of the group.
    redis.call('PUBLISH', ch, ARGV[k + 4] .. ':' .. first .. ':m\n' .. table.concat(parts))
    redis.call('HSET', run, 'frames', stored, 'lease', lease)
    redis.call('HINCRBY', run, 'bytes', bytes)
    if redis.call('EXISTS', thread) == 1 then redis.call('HINCRBY', thread, 'bytes', bytes) end
    used = used + bytes
  end
end
if used > 0 then redis.call('INCRBY', KEYS[4], used) end
return out
`)

// commit sends the appends queued at a moment in one pipeline (one
// script call a bucket), until the store closes.
func (s *Store) commit(q chan *appendReq) {
	defer s.wg.Done()
	group := make([]*appendReq, 0, maxGroup)
	for {
		select {
		case <-s.closing:
			// What is queued still goes (a run's last frames).
			for {
				select {
				case a := <-q:
					s.commitGroup([]*appendReq{a})
				default:
					return
				}
			}
		case a := <-q:
			group = append(group[:0], a)
		}
	more:
		for len(group) < maxGroup {
			select {
			case a := <-q:
				group = append(group, a)
			default:
				break more
			}
		}
		s.commitGroup(group)
	}
}

// commitGroup commits a group, sending again what fails to reach Redis
// for the store's retry time (SetRetry), and records what each append
// met.
func (s *Store) commitGroup(group []*appendReq) {
	type call struct {
		reqs []*appendReq
		keys []string
		args []any
		cmd  *redis.Cmd
		err  error
	}
	// One call a bucket; in it, a run's appends together, in order.
	var calls []*call
	byTag := map[string]*call{}
	byRun := map[string][]*appendReq{}
	var runs []string
	for _, a := range group {
		if a.keys == nil {
			continue // a marker
		}
		if _, failed := s.failed.Load(a.run); failed {
			continue // after a failed append: a gap the next call answers
		}
		if byRun[a.run] == nil {
			runs = append(runs, a.run)
		}
		byRun[a.run] = append(byRun[a.run], a)
	}
	for _, run := range runs {
		for _, a := range byRun[run] {
			c := byTag[a.tag]
			if c == nil {
				c = &call{}
				byTag[a.tag] = c
				calls = append(calls, c)
			}
			c.reqs = append(c.reqs, a)
			c.keys = append(c.keys, a.keys...)
			c.args = append(c.args, a.args...)
		}
	}
	for _, c := range calls {
		c.args = append(c.args, s.notifyChannel())
	}
	deadline := time.Now().Add(time.Duration(s.retry.Load()))
	for wait := 50 * time.Millisecond; len(calls) > 0; wait = min(2*wait, time.Second) {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		pipe := s.rdb.Pipeline()
		for _, c := range calls {
			c.cmd = appendGroupScript.EvalSha(ctx, pipe, c.keys, c.args...)
		}
		pipe.Exec(ctx) // each call's error is its own
		var again []*call
		for _, c := range calls {
			v, err := c.cmd.Result()
			if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
				v, err = appendGroupScript.Run(ctx, s.rdb, c.keys, c.args...).Result()
			}
			if isNetwork(err) && time.Now().Add(wait).Before(deadline) {
				again = append(again, c)
				continue
			}
			words, _ := v.([]any)
			for i, a := range c.reqs {
				var aerr error
				switch {
				case err != nil:
					aerr = err
				case i < len(words):
					aerr = answer(words[i], nil)
				default:
					aerr = errors.New("redisstore: short answer to a group append")
				}
				if aerr != nil {
					s.failed.LoadOrStore(a.run, aerr)
				}
			}
		}
		cancel()
		calls = again
		if len(calls) > 0 {
			time.Sleep(wait)
		}
	}
	for _, a := range group {
		if a.done != nil {
			close(a.done)
		}
	}
}
