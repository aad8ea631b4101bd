// Package boltstore is the relay's embedded, durable store: one
// go.etcd.io/bbolt file, for a relay on one machine (the default of
// cmd/agui-relay). Every append is committed (and synced) before readers
// see it; concurrent appends of many runs share commits (bbolt's Batch).
// bbolt locks the file, so one process owns it; readers in that process
// wait on in-memory channels.
//
// Layout: bucket "runs" (run key → run record, JSON), "frames" (one
// sub-bucket per run: 8-byte big-endian seq → frame), "threads" (thread
// key → thread record, JSON), "snapshots" (thread key → snapshot), "meta"
// (the secret, the bytes in use).
package boltstore
