// Package memstore is the in-memory relay store: for tests, and for a
// single process that needs no durability. Its records live in maps under
// one mutex; readers wait on a channel that is closed at every change of
// the run.
//
// It is also a run log for a server that produces runs itself, as
// cmd/agui-demo does: one thread per run (Run.Thread = Run.Key), frames
// appended as produced, Read with a wait to stream them live and to
// resume from any seq, Finish at the end; Sweep with Limits{MaxThreads:
// -resume-runs, MaxBytes: -resume-bytes, Retention: -resume-ttl} bounds it
// as the demo's flags do (Retention counts from a run's end). The producer
// lease and Touch give the demo's grace period: a producer that sees no
// reader for the grace (Renew returns the last Touch) stops.
package memstore
