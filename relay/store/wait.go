package store

import (
	"context"
	"time"
)

// WaitRead is Read's wait for the stores that learn of appends in their
// own process (memstore, boltstore): it calls read until it gives frames
// or a finished run, or until wait has passed or ctx ends, and returns its
// last answer. read returns the frames after the cursor, the run, and a
// channel closed on the run's next change, which it must take before
// reading so that no append between the two is missed.
func WaitRead(ctx context.Context, wait time.Duration, read func() ([]Frame, *Run, <-chan struct{}, error)) ([]Frame, *Run, error) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		out, run, changed, err := read()
		if err != nil || len(out) > 0 || run.Done() || wait <= 0 {
			return out, run, err
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		}
		select {
		case <-changed:
		case <-timer.C:
			return nil, run, nil
		case <-ctx.Done():
			return nil, run, ctx.Err()
		}
	}
}
