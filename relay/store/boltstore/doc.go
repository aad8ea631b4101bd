// Package boltstore is the relay's embedded, durable store: one
// go.etcd.io/bbolt file, for a relay on one machine (the default of
// cmd/agui-relay).
//
// bbolt locks the file, so one process owns it: the runs being produced
// are that process's, and their leases and readers live in memory. Appends
// are group-committed: a producer's Append returns at once, and one
// transaction (one fsync) every few milliseconds commits the frames of
// every run; readers see a frame once it is committed, so what a client
// was sent survives a crash. Finish returns once the run's end is
// committed. A run left unfinished by a process that is gone is ended by
// the relay when its stored lease has expired.
//
// Layout: bucket "runs" (run key → run record, JSON), "inputs" (run key →
// the run's new messages), "frames" (one sub-bucket per run: 8-byte
// big-endian seq → frame), "threads" (thread key → thread record, JSON),
// "snapshots" (thread key → snapshot), "meta" (the secret, the bytes in
// use).
package boltstore
