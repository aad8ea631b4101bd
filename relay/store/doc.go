// Package store is where the relay keeps runs and threads: the interface
// every backend implements, its records and its errors.
//
// A run is a log of frames (the JSON text of canonical AG-UI events)
// numbered from 1, appended by the one relay instance that holds the
// upstream connection (the producer) and read, live or later, by any
// instance. A thread is the runs of one conversation and the snapshot
// they fold into. Keys of runs and threads are derived by the relay and of
// bounded length; nothing a client sends becomes a key.
//
// Backends: memstore (in memory: tests, one process), boltstore (a
// go.etcd.io/bbolt file: one machine, durable) and redisstore (Redis
// Streams: many instances). storetest holds the behaviour they share, as a
// test suite each backend runs.
package store
