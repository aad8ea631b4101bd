package docs

import (
	"fmt"
	"strings"
)

// relayResults is bench/results-relay.json (bench/relay-thread.mjs): a
// long thread loaded by the web package from a real relay, against
// replaying its events, in Node and in headless Chromium.
type relayResults struct {
	Date   string `json:"date"`
	Thread struct {
		Messages      int   `json:"messages"`
		Events        int   `json:"events"`
		HistoryBytes  int64 `json:"historyBytes"`
		SnapshotBytes int64 `json:"snapshotBytes"`
	} `json:"thread"`
	Reps int `json:"reps"`
	relayRun
	Chromium *relayRun `json:"chromium"`
}

// relayRun is one runtime's figures (milliseconds, medians).
type relayRun struct {
	Runtime runtimeInfo `json:"runtime"`
	Ms      struct {
		ReplayFetched            float64 `json:"replayFetched"`
		LoadThread               float64 `json:"loadThread"`
		TailRestore              float64 `json:"tailRestore"`
		LoadThreadTailFirstPaint float64 `json:"loadThreadTailFirstPaint"`
		LoadThreadTailAll        float64 `json:"loadThreadTailAll"`
	} `json:"ms"`
}

// relayTable is the figure bench-relay-thread.
func relayTable(r *relayResults) string {
	runs := []*relayRun{&r.relayRun}
	if r.Chromium != nil {
		runs = append(runs, r.Chromium)
	}
	var b strings.Builder
	t := r.Thread
	fmt.Fprintf(&b, "%s: a %s-message thread (%s events, %.1f MB of SSE; snapshot %.1f MB), to the first painted state; medians of %d, and how many times faster than the replay\n\n",
		r.Date, thousands(int64(t.Messages)), thousands(int64(t.Events)), float64(t.HistoryBytes)/1e6, float64(t.SnapshotBytes)/1e6, r.Reps)
	b.WriteString("| |")
	for _, run := range runs {
		b.WriteString(" " + runtimeName(run.Runtime) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(runs)) + "\n")
	row := func(what string, v func(*relayRun) float64, ratio bool) {
		b.WriteString("| " + what + " |")
		for _, run := range runs {
			cell := seconds(v(run))
			if ratio {
				cell += " (" + sig(run.Ms.ReplayFetched/v(run)) + "×)"
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	row("replaying its events: the history fetched as SSE and fed to the reducer as it arrives", func(x *relayRun) float64 { return x.Ms.ReplayFetched }, false)
	row("`loadThread` (the tail first, the default): the last 50 messages", func(x *relayRun) float64 { return x.Ms.LoadThreadTailFirstPaint }, true)
	row("… and the whole thread behind them", func(x *relayRun) float64 { return x.Ms.LoadThreadTailAll }, true)
	row("`loadThread(…, {tail: false})`: the whole thread at once (`GET /threads/{id}?view=reducer` + `restore`)", func(x *relayRun) float64 { return x.Ms.LoadThread }, true)
	row("`?view=reducer&tail=1` + `restore` alone", func(x *relayRun) float64 { return x.Ms.TailRestore }, true)
	return strings.TrimSuffix(b.String(), "\n")
}
