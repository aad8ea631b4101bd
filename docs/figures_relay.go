package docs

import "fmt"

// relayResults is bench/results-relay.json (bench/relay-thread.mjs): a
// long thread loaded by the web package from a real relay, against
// replaying its events.
type relayResults struct {
	Date    string      `json:"date"`
	Runtime runtimeInfo `json:"runtime"`
	Thread  struct {
		Messages      int   `json:"messages"`
		Events        int   `json:"events"`
		HistoryBytes  int64 `json:"historyBytes"`
		SnapshotBytes int64 `json:"snapshotBytes"`
	} `json:"thread"`
	Reps int `json:"reps"`
	Ms   struct {
		ReplayFetched            float64 `json:"replayFetched"`
		LoadThread               float64 `json:"loadThread"`
		TailRestore              float64 `json:"tailRestore"`
		LoadThreadTailFirstPaint float64 `json:"loadThreadTailFirstPaint"`
		LoadThreadTailAll        float64 `json:"loadThreadTailAll"`
	} `json:"ms"`
}

// relayTable is the figure bench-relay-thread.
func relayTable(r *relayResults) string {
	t := r.Thread
	x := func(v float64) string { return sig(r.Ms.ReplayFetched/v) + "×" }
	return fmt.Sprintf(`| %s, %s: a %s-message thread (%s events, %.1f MB of SSE; snapshot %.1f MB), medians of %d | to the first painted state | faster than the replay |
|---|---:|---:|
| replaying its events: the history fetched as SSE and fed to the reducer as it arrives | %s | 1× |
| `+"`loadThread`"+` (`+"`GET /threads/{id}?view=reducer` + `restore`"+`) | %s | %s |
| `+"`loadThread(…, {tail: true})`"+`: the last 50 messages first | %s | %s |
| … and the whole thread behind them | %s | %s |
| `+"`?view=reducer&tail=1` + `restore`"+` alone | %s | %s |`,
		runtimeName(r.Runtime), r.Date, thousands(int64(t.Messages)), thousands(int64(t.Events)), float64(t.HistoryBytes)/1e6, float64(t.SnapshotBytes)/1e6, r.Reps,
		seconds(r.Ms.ReplayFetched),
		seconds(r.Ms.LoadThread), x(r.Ms.LoadThread),
		seconds(r.Ms.LoadThreadTailFirstPaint), x(r.Ms.LoadThreadTailFirstPaint),
		seconds(r.Ms.LoadThreadTailAll), x(r.Ms.LoadThreadTailAll),
		seconds(r.Ms.TailRestore), x(r.Ms.TailRestore))
}
