package docs

import (
	"fmt"
	"strings"
)

// largeSide is one agent's figures on a large-arguments run
// (bench/agent-large.mjs); the fields Node alone measures are nil in
// Chromium, and Chromium's longest task is nil in Node.
type largeSide struct {
	TotalMs             float64    `json:"totalMs"`
	TotalSpread         [2]float64 `json:"totalSpread"`
	CPUMs               *float64   `json:"cpuMs"`
	FirstTenthUs        float64    `json:"firstTenthUs"`
	LastTenthUs         float64    `json:"lastTenthUs"`
	LongestGapMs        float64    `json:"longestGapMs"`
	LongTaskMs          *float64   `json:"longTaskMs"`
	PeakHeapMB          float64    `json:"peakHeapMB"`
	AllocatedPerEventKB *float64   `json:"allocatedPerEventKB"`
	Reps                int        `json:"reps"`
}

type largeRow struct {
	Bytes       int       `json:"bytes"`
	Calls       int       `json:"calls"`
	Subscribers int       `json:"subscribers"`
	Reader      bool      `json:"reader"`
	Events      int       `json:"events"`
	Official    largeSide `json:"official"`
	Ours        largeSide `json:"ours"`
	TotalRatio  float64   `json:"totalRatio"`
	CPURatio    *float64  `json:"cpuRatio"`
	Same        bool      `json:"same"`
}

type coldSide struct {
	FirstCallMs     float64    `json:"firstCallMs"`
	FirstCallSpread [2]float64 `json:"firstCallSpread"`
	FirstRunMs      float64    `json:"firstRunMs"`
	FirstRunSpread  [2]float64 `json:"firstRunSpread"`
	Reps            int        `json:"reps"`
}

type coldRun struct {
	Official coldSide `json:"official"`
	Ours     coldSide `json:"ours"`
}

type benchBar struct {
	Bar   string  `json:"bar"`
	Value float64 `json:"value"`
	Met   bool    `json:"met"`
}

// largeTable is the figure bench-agent-large: both runtimes' large-arguments
// rows (medians, the spread of the totals in brackets).
func largeTable(runs ...*agentRun) string {
	lines := []string{
		"| runtime | arguments | subscribers | preview reader | events | HttpAgent total ms | ours total ms | total ratio | CPU ratio | ours µs/event, first → last tenth | peak heap MB, HttpAgent / ours | KB allocated per event, HttpAgent / ours | longest task (Chromium) or gap (Node), HttpAgent / ours |",
		"|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
	}
	opt := func(p *float64, d int) string {
		if p == nil {
			return "—"
		}
		return fixed(*p, d)
	}
	for _, a := range runs {
		for _, r := range a.Large {
			o, u := r.Official, r.Ours
			longest := fmt.Sprintf("%s / %s ms", fixed(o.LongestGapMs, 0), fixed(u.LongestGapMs, 0))
			if o.LongTaskMs != nil && u.LongTaskMs != nil {
				longest = fmt.Sprintf("%s / %s ms", fixed(*o.LongTaskMs, 0), fixed(*u.LongTaskMs, 0))
			}
			reader := "no"
			if r.Reader {
				reader = "yes"
			}
			line := fmt.Sprintf("| %s | %d × %d KB | %d | %s | %s | %s [%s–%s] | %s [%s–%s] | %s× | %s | %s → %s | %s / %s | %s / %s | %s |",
				runtimeName(a.Runtime), r.Calls, r.Bytes/1000, r.Subscribers, reader, thousands(int64(r.Events)),
				fixed(o.TotalMs, 0), fixed(o.TotalSpread[0], 0), fixed(o.TotalSpread[1], 0),
				fixed(u.TotalMs, 0), fixed(u.TotalSpread[0], 0), fixed(u.TotalSpread[1], 0),
				fixed(r.TotalRatio, 1), ratioOrDash(r.CPURatio),
				fixed(u.FirstTenthUs, 1), fixed(u.LastTenthUs, 1),
				fixed(o.PeakHeapMB, 1), fixed(u.PeakHeapMB, 1),
				opt(o.AllocatedPerEventKB, 1), opt(u.AllocatedPerEventKB, 1), longest)
			if !r.Same {
				line += " DIFFER"
			}
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

func ratioOrDash(p *float64) string {
	if p == nil {
		return "—"
	}
	return fixed(*p, 1) + "×"
}

// coldTable is the figure bench-agent-cold: the first run of a fresh page
// (Chromium) or process (Node), module load included.
func coldTable(runs ...*agentRun) string {
	lines := []string{
		"| runtime | runs | first subscriber call, HttpAgent | ours | first run's end, HttpAgent | ours |",
		"|---|---:|---:|---:|---:|---:|",
	}
	span := func(x float64, s [2]float64) string {
		return fmt.Sprintf("%s ms [%s–%s]", fixed(x, 0), fixed(s[0], 0), fixed(s[1], 0))
	}
	for _, a := range runs {
		c := a.Cold
		if c == nil {
			continue
		}
		lines = append(lines, fmt.Sprintf("| %s | %d | %s | %s | %s | %s |", runtimeName(a.Runtime), c.Ours.Reps,
			span(c.Official.FirstCallMs, c.Official.FirstCallSpread), span(c.Ours.FirstCallMs, c.Ours.FirstCallSpread),
			span(c.Official.FirstRunMs, c.Official.FirstRunSpread), span(c.Ours.FirstRunMs, c.Ours.FirstRunSpread)))
	}
	return strings.Join(lines, "\n")
}

// barsList is the figure bench-agent-bars: every bar of bench/agent.mjs as
// the run judged it.
func barsList(runs ...*agentRun) string {
	var lines []string
	for _, a := range runs {
		seen := map[string]bool{}
		for _, b := range a.Bars {
			if seen[b.Bar] {
				continue
			}
			seen[b.Bar] = true
			verdict := "missed"
			if b.Met {
				verdict = "met"
			}
			lines = append(lines, fmt.Sprintf("- %s, %s: %s (%s)", runtimeName(a.Runtime), b.Bar, verdict, fixed(b.Value, 2)))
		}
	}
	return strings.Join(lines, "\n")
}
