package store

// What a store counts (Run.Bytes, Thread.Bytes, Usage, and so the relay's
// limits): the bytes of inputs, frames and snapshots plus a fixed cost per
// thread, per run and per frame, so that many small records cannot hold
// much more than the limits say. The costs are those of the in-memory
// store's records on a 64-bit Go heap (record structs, map entries, key
// strings, slice headers, size-class rounding and append's spare
// capacity), measured with runtime.ReadMemStats after GC and rounded up by
// half or more:
//
//	             measured   counted
//	per thread   ~190       ThreadOverhead
//	per run      ~505       RunOverhead
//	per frame    ~36-49     FrameOverhead (12-byte frames)
//
// The durable stores count the same, so that a limit means the same
// whatever the store (their own per-record costs, on disk or in Redis, are
// of the same order).
const (
	ThreadOverhead = 384
	RunOverhead    = 768
	FrameOverhead  = 64
)

// RunBytes is what a new run with input counts.
func RunBytes(input []byte) int64 { return RunOverhead + int64(len(input)) }

// FrameBytes is what a frame counts.
func FrameBytes(data []byte) int64 { return FrameOverhead + int64(len(data)) }
