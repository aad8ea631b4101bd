// Package relay puts persistent, resumable threads in front of any AG-UI
// agent. cmd/agui-relay is its command; docs/relay.md is the operator's
// page.
//
// The model. A client POSTs a RunAgentInput to /agent as it would to the
// agent. The relay starts a run: it records the run in its store
// (package store), POSTs the body upstream, and produces the run apart
// from the client's connection: every upstream event (translated to
// canonical AG-UI by one dialect translator per run when the upstream
// speaks another dialect) becomes a frame appended to the run's log,
// numbered from 1. The client's connection, like every connection, streams
// the log: each frame with the SSE id "<run key>:<seq>", live until the
// run's RUN_FINISHED or RUN_ERROR. One path serves the first connection,
// a resume (Last-Event-ID, docs/resume.md) and a connection to another
// instance; a run goes on while no client reads it for a grace period. An
// upstream answer cut before the run's end is asked for again with the
// Last-Event-ID of the upstream's last event (produce.go).
//
// Threads. After each run the relay folds the thread's finished runs, in
// order, with the Go reducer (package reducer) into a snapshot, and keeps
// the raw frames of recent runs only (compaction), so GET
// /threads/{threadId} answers with MESSAGES_SNAPSHOT and STATE_SNAPSHOT
// (as JSON, or as an SSE stream that goes on with the live run) in one
// response whatever the thread's length, plus the id to resume the run
// still going.
//
// Liveness. The producing instance renews a lease on its run; a reader on
// any instance that finds the lease expired ends the run with a RUN_ERROR
// (code relay_producer_lost), so a crashed producer never leaves a client
// hanging, and the frames up to that point stay readable. Readers record
// that they read (Touch); a run no client read for the grace period ends
// with relay_run_abandoned.
//
// Security. A request's credential is the user a verified bearer JWT
// names (Config.AuthJWKS: a refreshed token keeps the user's threads), or
// a trusted gateway's user header (Config.AuthHeader), or else a thread
// key the relay hands out; it is kept only as a keyed
// hash (HMAC), and the thread's key in the store is derived from that
// hash and the client's threadId, so nothing a client sends is stored as
// a key, no two clients' threads collide, and another credential finds
// nothing. With Config.KeylessRuns, a request without a credential is a
// thread of its own whose key derives from its run's key, so that its event
// ids alone resume it (keyless.go): what a client that keeps no key needs.
// Host and Origin are checked by package httpguard, as in cmd/agui-demo;
// bodies, events, runs, threads and the store are bounded.
//
// Bad days. Shutdown drains: the runs this instance produces end with a
// RUN_ERROR (relay_shutdown) that their streams send before they close,
// and that is stored. A store that refuses writes fails /readyz, and a run
// whose frames it refused for StoreTimeout ends with relay_store_unavailable,
// sent to its streams even when it cannot be stored (Server.unstored). A
// run holds its MaxRuns slot until its end is stored.
//
// Operations: GET /livez, /readyz, /healthz; GET /metrics in the
// Prometheus format (metrics.go: each Server its own registry, the store
// measured through a wrapper); log/slog lines (log.go: an access line per
// request, a line per run the relay failed, with its code and reason).
//
// cmd/agui-demo runs a Server in-process for every POST /agent: the demo
// has no run log of its own.
package relay
