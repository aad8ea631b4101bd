// Package redisstore keeps the relay's runs and threads in Redis, for
// many relay instances behind a load balancer: a run's frames are a Redis
// Stream (entry ids 0-<seq>), so any instance reads a run, whichever
// instance produces it, and tails it live from the frames every append
// publishes on one channel (one subscription an instance, so live streams
// hold no connection: tail.go). Every change that must be checked (the
// next seq, a run not finished yet, a fold's version) is one Lua script,
// atomic in Redis; appends are group-committed, one script call a group.
// Frame ids are explicit, so a producer that retries an append after a
// failure never stores a frame twice.
//
// Keys (prefix agui: by default): run:<key> (hash: the run's record),
// frames:<key> (stream), thread:<key> (hash: record and snapshot),
// runs:<key> (list: the thread's kept runs), updated (sorted set: threads
// by last update), ended (sorted set: runs by end), running (set: runs
// not finished), usage (bytes kept), secret. On one Redis (or a primary
// with replicas and Sentinel) they are as named; on a Redis Cluster
// (OpenCluster, redis+cluster://) every key but the secret carries the
// hash tag of its thread's bucket, and a run index names each run's
// thread (cluster.go), so that every script touches one slot.
package redisstore
