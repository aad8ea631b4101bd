package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Module is the size of the built WebAssembly module in bytes: as built,
// gzip -9 and brotli -q 11 (web/dist/agui.wasm, .gz, .br).
type Module struct {
	Raw    int64 `json:"raw"`
	Gzip   int64 `json:"gzip"`
	Brotli int64 `json:"brotli"`
}

// Source is what the figures are made from.
type Source struct {
	Module Module
	// The benchmark results, as make bench writes them.
	Node, Chromium *reducerResults
	Agent          *agentResults
	Legacy         *agentRun
	Relay          *relayResults
}

const (
	figuresJSON = "docs/figures.json"
	figuresPage = "docs/figures.md"
)

// figuresFile is docs/figures.json.
type figuresFile struct {
	Comment string `json:"comment"`
	Module  Module `json:"module"`
}

// MeasureModule reads the sizes of the module web/dist/agui.wasm (and its
// .gz and .br copies) under root.
func MeasureModule(root string) (Module, error) {
	var m Module
	for _, f := range []struct {
		name string
		n    *int64
	}{{"agui.wasm", &m.Raw}, {"agui.wasm.gz", &m.Gzip}, {"agui.wasm.br", &m.Brotli}} {
		fi, err := os.Stat(filepath.Join(root, "web/dist", f.name))
		if err != nil {
			return Module{}, err
		}
		*f.n = fi.Size()
	}
	return m, nil
}

// ReadSource reads the recorded module sizes (docs/figures.json) and the
// benchmark results under root.
func ReadSource(root string) (*Source, error) {
	var ff figuresFile
	if err := readJSON(filepath.Join(root, figuresJSON), &ff); err != nil {
		return nil, err
	}
	s := &Source{Module: ff.Module}
	for _, r := range []struct {
		file string
		v    any
	}{
		{"bench/results.json", &s.Node},
		{"bench/results-chromium.json", &s.Chromium},
		{"bench/results-agent.json", &s.Agent},
		{"bench/results-agent-legacy.json", &s.Legacy},
		{"bench/results-relay.json", &s.Relay},
	} {
		if err := readJSON(filepath.Join(root, r.file), r.v); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// Pages are the documentation files whose figure regions are kept: README.md
// and every docs/*.md but the figures page itself.
func Pages(root string) ([]string, error) {
	pages := []string{"README.md"}
	md, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	for _, f := range md {
		rel, _ := filepath.Rel(root, f)
		if rel = filepath.ToSlash(rel); rel != figuresPage {
			pages = append(pages, rel)
		}
	}
	sort.Strings(pages[1:])
	return pages, nil
}

// region is <!-- figure NAME -->CONTENT<!-- /figure -->.
var region = regexp.MustCompile(`(?s)<!-- figure ([a-z0-9-]+) -->(.*?)<!-- /figure -->`)

// regionText is what a region of the figure holds: a one-line figure
// inline, a block on lines of its own.
func regionText(value string) string {
	if strings.Contains(value, "\n") {
		return "\n" + value + "\n"
	}
	return value
}

// Fill returns text with every figure region holding its figure, and the
// names of regions whose figure does not exist.
func Fill(text string, figures map[string]string) (string, []string) {
	var unknown []string
	out := region.ReplaceAllStringFunc(text, func(m string) string {
		name := region.FindStringSubmatch(m)[1]
		v, ok := figures[name]
		if !ok {
			unknown = append(unknown, name)
			return m
		}
		return "<!-- figure " + name + " -->" + regionText(v) + "<!-- /figure -->"
	})
	return out, unknown
}

// Update measures the module when it is built (else keeps the recorded
// sizes), records its sizes in docs/figures.json, and writes docs/figures.md
// and every page's figure regions. It returns the files it changed.
func Update(root string) ([]string, error) {
	var changed []string
	write := func(rel string, b []byte) error {
		file := filepath.Join(root, rel)
		old, err := os.ReadFile(file)
		if err == nil && bytes.Equal(old, b) {
			return nil
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		changed = append(changed, rel)
		return os.WriteFile(file, b, 0o644)
	}
	var ff figuresFile
	if err := readJSON(filepath.Join(root, figuresJSON), &ff); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if m, err := MeasureModule(root); err == nil {
		ff.Module = m
	} else if ff.Module.Brotli == 0 {
		return nil, fmt.Errorf("no module sizes recorded and none to measure (make wasm): %w", err)
	}
	ff.Comment = "Written by make docs-figures (cmd/docs-figures) from web/dist/agui.wasm; do not edit."
	b, err := json.MarshalIndent(ff, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := write(figuresJSON, append(b, '\n')); err != nil {
		return nil, err
	}
	src, err := ReadSource(root)
	if err != nil {
		return nil, err
	}
	figs := src.Figures()
	if err := write(figuresPage, []byte(FiguresPage(figs))); err != nil {
		return nil, err
	}
	pages, err := Pages(root)
	if err != nil {
		return nil, err
	}
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			return nil, err
		}
		out, unknown := Fill(string(text), figs)
		if len(unknown) > 0 {
			return nil, fmt.Errorf("%s: no figure named %s", p, strings.Join(unknown, ", "))
		}
		if err := write(p, []byte(out)); err != nil {
			return nil, err
		}
	}
	return changed, nil
}

// figureList is the order and the titles of the figures on docs/figures.md.
var figureList = []struct{ name, title string }{
	{"module-sizes", "The module"},
	{"bench-reducer", "The reducer against @ag-ui/client's"},
	{"bench-reducer-summary", "The reducer: growth, one token, load, memory"},
	{"bench-agent-node", "The drop-in HttpAgent, Node, production"},
	{"bench-agent-node-dev", "The drop-in HttpAgent, Node, development"},
	{"bench-agent-chromium", "The drop-in HttpAgent, Chromium, production"},
	{"bench-agent-chromium-dev", "The drop-in HttpAgent, Chromium, development"},
	{"bench-agent-load", "The drop-in HttpAgent: module load"},
	{"bench-agent-legacy", "The drop-in HttpAgent against @ag-ui/client 0.0.48"},
	{"bench-relay-thread", "A long thread loaded from agui-relay, web package"},
}

// FiguresPage is docs/figures.md.
func FiguresPage(figs map[string]string) string {
	var b strings.Builder
	b.WriteString("# Figures\n\n")
	b.WriteString("<!-- Written by make docs-figures (cmd/docs-figures); do not edit. -->\n\n")
	b.WriteString("Every figure of the documentation that changes with the code, from one source: the sizes of\n")
	b.WriteString("the module `make wasm` builds (recorded in `docs/figures.json`) and the results `make bench`\n")
	b.WriteString("writes (`bench/results.json`, `results-chromium.json`, `results-agent.json`,\n")
	b.WriteString("`results-agent-legacy.json`, `results-relay.json`). `make docs-figures` writes this page and the same figures where the\n")
	b.WriteString("other pages quote them; `go test ./docs/` fails when a page disagrees with it, and\n")
	b.WriteString("`web/test/unit/figures.test.mjs` when the built module is more than 1% off the recorded sizes.\n")
	b.WriteString("What the benchmarks measure, and how: [performance.md](performance.md) and `bench/README.md`.\n")
	for _, f := range figureList {
		b.WriteString("\n## " + f.title + "\n\n")
		b.WriteString(figs[f.name])
		b.WriteString("\n")
	}
	return b.String()
}

// Figures renders every figure by name.
func (s *Source) Figures() map[string]string {
	m := s.Module
	figs := map[string]string{
		"module-raw":    bytesKiB(m.Raw),
		"module-gzip":   bytesKiB(m.Gzip),
		"module-brotli": bytesKiB(m.Brotli),
		"module-sizes": strings.Join([]string{
			"| `agui.wasm` | bytes | KiB |",
			"|---|---:|---:|",
			fmt.Sprintf("| as built | %s | %s |", thousands(m.Raw), kib(m.Raw)),
			fmt.Sprintf("| gzip -9 (`agui.wasm.gz`) | %s | %s |", thousands(m.Gzip), kib(m.Gzip)),
			fmt.Sprintf("| brotli -q 11 (`agui.wasm.br`) | %s | %s |", thousands(m.Brotli), kib(m.Brotli)),
		}, "\n"),
		"bench-reducer":                 reducerTable(s.Node, s.Chromium),
		"bench-reducer-ratio":           reducerRatio(100, s.Node, s.Chromium),
		"bench-reducer-summary":         reducerSummary(s.Node, s.Chromium),
		"bench-reducer-total-ratio-25":  reducerTotalRatio(25, s.Node, s.Chromium),
		"bench-reducer-total-ratio-100": reducerTotalRatio(100, s.Node, s.Chromium),
		"bench-reducer-growth-bar":      growthBar(1.3, s.Node, s.Chromium),
	}
	a := s.Agent
	figs["bench-agent-node"] = agentTable(a.Node.Rows)
	figs["bench-agent-chromium"] = agentTable(a.Chromium.Rows)
	if a.Node.Dev != nil {
		figs["bench-agent-node-dev"] = agentTable(a.Node.Dev.Rows)
	}
	if a.Chromium.Dev != nil {
		figs["bench-agent-chromium-dev"] = agentTable(a.Chromium.Dev.Rows)
	}
	figs["bench-agent-load"] = fmt.Sprintf("Module load, apart from the runs: `@ag-ui/client` %s (%s) and %s (%s, its unbundled ESM files through an import map); the drop-in's modules plus `loadReducer()` %s and %s.",
		ms(a.Node.Load.OfficialMs), runtimeName(a.Node.Runtime), ms(a.Chromium.Load.OfficialMs), runtimeName(a.Chromium.Runtime), ms(a.Node.Load.OursMs), ms(a.Chromium.Load.OursMs))
	figs["bench-agent-large"] = largeTable(&a.Node, &a.Chromium)
	figs["bench-agent-cold"] = coldTable(&a.Node, &a.Chromium)
	figs["bench-agent-bars"] = barsList(&a.Node, &a.Chromium)
	figs["bench-relay-thread"] = relayTable(s.Relay)
	figs["bench-agent-legacy"] = agentTable(s.Legacy.Rows) + "\n\n" +
		fmt.Sprintf("%s, production. Module load: `%s` %s; the drop-in with 1.0.0 under it %s.", runtimeName(s.Legacy.Runtime), s.Legacy.Runtime.Official, ms(s.Legacy.Load.OfficialMs), ms(s.Legacy.Load.OursMs))
	return figs
}

type runtimeInfo struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Official string `json:"official"`
}

// runtimeName is "Node 20" or "Chromium 156".
func runtimeName(r runtimeInfo) string {
	v := strings.TrimPrefix(strings.TrimPrefix(r.Version, "v"), "Chrome/")
	major, _, _ := strings.Cut(v, ".")
	switch r.Name {
	case "node":
		return "Node " + major
	case "chromium":
		return "Chromium " + major
	}
	return r.Name + " " + major
}

type timing struct {
	PerEventUs     float64 `json:"perEventUs"`
	TotalMs        float64 `json:"totalMs"`
	TotalEstimated bool    `json:"totalEstimated"`
	Reps           int     `json:"reps"`
}

type reducerResults struct {
	Lengths []struct {
		Turns      int     `json:"turns"`
		Events     int     `json:"events"`
		Official   timing  `json:"official"`
		Ours       timing  `json:"ours"`
		OursEvent  timing  `json:"oursEvent"`
		Ratio      float64 `json:"ratio"`
		RatioEvent float64 `json:"ratioEvent"`
	} `json:"lengths"`
	TextContent struct {
		EventBytes float64 `json:"eventBytes"`
		ParseUs    float64 `json:"parseUs"`
		ApplyUs    float64 `json:"applyUs"`
		Ratio      float64 `json:"ratio"`
	} `json:"textContent"`
	Load struct {
		FirstMs float64 `json:"firstMs"`
		BestMs  float64 `json:"bestMs"`
	} `json:"load"`
	Memory struct {
		Start         int64   `json:"start"`
		Turns400      int     `json:"turns400"`
		After400      int64   `json:"after400"`
		Conversations int     `json:"conversations"`
		Turns         int     `json:"turns"`
		AfterEach     []int64 `json:"afterEach"`
		Plateau       bool    `json:"plateau"`
	} `json:"memory"`
	Meta struct {
		EventsAt map[string]int `json:"eventsAt"`
	} `json:"meta"`
	NoMirror []struct {
		Turns      int     `json:"turns"`
		PerEventUs float64 `json:"perEventUs"`
	} `json:"noMirror"`
	FlatBest  float64     `json:"flatBest"`
	FlatEvent float64     `json:"flatEvent"`
	Runtime   runtimeInfo `json:"runtime"`
}

// flat is ours at the longest length over ours at the shortest.
func (r *reducerResults) flat() float64 {
	l := r.Lengths
	return l[len(l)-1].Ours.PerEventUs / l[0].Ours.PerEventUs
}

func reducerTable(runs ...*reducerResults) string {
	lines := []string{
		"| turns | runtime | official µs/event | ours µs/event | ratio | official total | ours total | ours, state read every event: µs/event |",
		"|---:|---|---:|---:|---:|---:|---:|---:|",
	}
	for _, r := range runs {
		for _, l := range r.Lengths {
			official := seconds(l.Official.TotalMs)
			if l.Official.TotalEstimated {
				official = "~" + official + " (est.)"
			}
			lines = append(lines, fmt.Sprintf("| %d | %s | %s | %s | %s× | %s | %s | %s |",
				l.Turns, runtimeName(r.Runtime), sig(l.Official.PerEventUs), fixed(l.Ours.PerEventUs, 2), fixed(l.Ratio, 0),
				official, seconds(l.Ours.TotalMs), fixed(l.OursEvent.PerEventUs, 2)))
		}
	}
	return strings.Join(lines, "\n")
}

// reducerRatio is the official reducer's cost over ours at turns, per
// runtime: "155× in Node 20 and 163× in Chromium 156".
func reducerRatio(turns int, runs ...*reducerResults) string {
	var parts []string
	for _, r := range runs {
		for _, l := range r.Lengths {
			if l.Turns == turns {
				parts = append(parts, fixed(l.Ratio, 0)+"× in "+runtimeName(r.Runtime))
			}
		}
	}
	return strings.Join(parts, " and ")
}

// reducerTotalRatio is the official reducer's time over ours for a whole
// conversation of turns (every event of every turn folded: the table's
// totals), per runtime: "79× in Node 20 and 88× in Chromium 156". The
// per-event ratio (reducerRatio) is the marginal cost at the last turn; this
// is what a user's whole conversation costs. Estimated totals are not used.
func reducerTotalRatio(turns int, runs ...*reducerResults) string {
	var parts []string
	for _, r := range runs {
		for _, l := range r.Lengths {
			if l.Turns == turns && !l.Official.TotalEstimated && l.Ours.TotalMs > 0 {
				parts = append(parts, fixed(l.Official.TotalMs/l.Ours.TotalMs, 0)+"× in "+runtimeName(r.Runtime))
			}
		}
	}
	return strings.Join(parts, " and ")
}

// growthBar says whether ours at the longest conversation stays within bar
// times ours at the shortest, per runtime: "met: 1.20× (Node 20) and 1.16×
// (Chromium 156)".
func growthBar(bar float64, runs ...*reducerResults) string {
	met := "met"
	var parts []string
	for _, r := range runs {
		if r.flat() > bar {
			met = "NOT met"
		}
		parts = append(parts, fixed(r.flat(), 2)+"× ("+runtimeName(r.Runtime)+")")
	}
	return met + ": " + strings.Join(parts, " and ")
}

func reducerSummary(node, chromium *reducerResults) string {
	n, c := node, chromium
	last := func(r *reducerResults) int { return len(r.Lengths) - 1 }
	first := func(r *reducerResults) int { return r.Lengths[0].Turns }
	mib := func(b int64) string { return fixed(float64(b)/(1<<20), 1) + " MiB" }
	memory := func(r *reducerResults) string {
		m := r.Memory
		s := fmt.Sprintf("%s at start and %s after %d turns (%s events); across %d conversations of %d turns with `reset()` between them: %s",
			mib(m.Start), mib(m.After400), m.Turns400, thousands(int64(r.Meta.EventsAt[fmt.Sprint(m.Turns400)])), m.Conversations, m.Turns, plateau(m.AfterEach, mib))
		if m.Plateau {
			s += " (it plateaus)"
		} else {
			s += " (it GROWS)"
		}
		return s
	}
	mem := "in " + runtimeName(n.Runtime) + ", " + memory(n) + "; in " + runtimeName(c.Runtime) + ", " + memory(c)
	if memory(n) == memory(c) {
		mem = memory(n) + ", in " + runtimeName(n.Runtime) + " and in " + runtimeName(c.Runtime)
	}
	lines := []string{
		fmt.Sprintf("- **Growth with the conversation**: ours at %d turns / ours at %d turns is **%s× in %s and %s× in %s**, %s× and %s× on the best window of each. The wasm reducer alone (no mirror): %s → %s µs/event in %s, %s → %s in %s. With a subscriber that reads the whole state after every event: %s× in %s and %s× in %s; against the official reducer, at %d turns, that column is %s× in %s and %s× in %s.",
			n.Lengths[last(n)].Turns, first(n), fixed(n.flat(), 2), runtimeName(n.Runtime), fixed(c.flat(), 2), runtimeName(c.Runtime),
			fixed(n.FlatBest, 2), fixed(c.FlatBest, 2),
			noMirror(n, 0), noMirror(n, 1), runtimeName(n.Runtime), noMirror(c, 0), noMirror(c, 1), runtimeName(c.Runtime),
			fixed(n.FlatEvent, 1), runtimeName(n.Runtime), fixed(c.FlatEvent, 1), runtimeName(c.Runtime),
			n.Lengths[last(n)].Turns, fixed(n.Lengths[last(n)].RatioEvent, 0), runtimeName(n.Runtime), fixed(c.Lengths[last(c)].RatioEvent, 0), runtimeName(c.Runtime)),
		fmt.Sprintf("- **One streamed token as JS sees it**: `apply()` of a %s-byte `TEXT_MESSAGE_CONTENT` (encode, wasm call, reduce, change record, mirror update, a subscriber that reads the state) costs **%s µs in %s and %s µs in %s, %s× and %s× a `JSON.parse` of the same text** (%s µs, %s µs), measured alternately in the same run.",
			fixed(n.TextContent.EventBytes, 0), fixed(n.TextContent.ApplyUs, 2), runtimeName(n.Runtime), fixed(c.TextContent.ApplyUs, 2), runtimeName(c.Runtime),
			fixed(n.TextContent.Ratio, 1), fixed(c.TextContent.Ratio, 1), fixed(n.TextContent.ParseUs, 2), fixed(c.TextContent.ParseUs, 2)),
		fmt.Sprintf("- **Load**: `loadReducer()` to ready, cold: %s in %s, %s in %s (fetch, compile, instantiate, start); best of the repeated loads, once V8 has the code cached: %s and %s.",
			ms(n.Load.FirstMs), runtimeName(n.Runtime), ms(c.Load.FirstMs), runtimeName(c.Runtime), ms(n.Load.BestMs), ms(c.Load.BestMs)),
		"- **Memory**: the wasm memory is " + mem + ".",
	}
	return strings.Join(lines, "\n")
}

func noMirror(r *reducerResults, i int) string {
	if i >= len(r.NoMirror) {
		return "—"
	}
	return fixed(r.NoMirror[i].PerEventUs, 2)
}

// plateau lists the readings, the run of equal ones at the end as one.
func plateau(vs []int64, unit func(int64) string) string {
	if len(vs) == 0 {
		return "no readings"
	}
	k := len(vs) - 1
	for k > 0 && vs[k-1] == vs[len(vs)-1] {
		k--
	}
	var parts []string
	for _, v := range vs[:k] {
		parts = append(parts, strings.TrimSuffix(unit(v), " MiB"))
	}
	tail := unit(vs[k])
	if k == len(vs)-1 {
		return strings.Join(append(parts, tail), ", ") + " after each"
	}
	s := fmt.Sprintf("%s from conversation %d to %d", tail, k+1, len(vs))
	if len(parts) > 0 {
		s = strings.Join(parts, ", ") + ", then " + s
	}
	return s
}

type agentRow struct {
	Turns       int      `json:"turns"`
	Subscribers int      `json:"subscribers"`
	Events      int      `json:"events"`
	Official    timing   `json:"official"`
	Ours        timing   `json:"ours"`
	Floor       timing   `json:"floor"`
	Ratio       float64  `json:"ratio"`
	TotalRatio  float64  `json:"totalRatio"`
	ApplyRatio  *float64 `json:"applyRatio"` // null when ours was not above the floor
	Same        bool     `json:"same"`
	LongTaskMs  *struct {
		Official float64 `json:"official"`
		Ours     float64 `json:"ours"`
	} `json:"longTaskMs"`
	// A row measured in several pages, the median page's (bench/agent-core.mjs's
	// medianPageRow): how many, and each page's total ratio.
	Pages   int       `json:"pages"`
	PerPage []float64 `json:"perPage"`
}

type agentRun struct {
	Rows []agentRow `json:"rows"`
	Load struct {
		OfficialMs float64 `json:"officialMs"`
		OursMs     float64 `json:"oursMs"`
	} `json:"load"`
	Runtime runtimeInfo `json:"runtime"`
	Dev     *agentRun   `json:"dev"`
	Large   []largeRow  `json:"large"`
	Cold    *coldRun    `json:"cold"`
	Bars    []benchBar  `json:"bars"`
}

type agentResults struct {
	Node     agentRun `json:"node"`
	Chromium agentRun `json:"chromium"`
}

// agentTable is the drop-in's table as bench/report.mjs prints it.
func agentTable(rows []agentRow) string {
	lt := false
	for _, r := range rows {
		lt = lt || r.LongTaskMs != nil
	}
	head := "| subscribers | turns | events | HttpAgent µs/event | ours µs/event | floor µs/event | ratio | HttpAgent total ms | ours total ms | floor total ms | total ratio | apply-step ratio |"
	rule := "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	if lt {
		head += " longest task HttpAgent | ours |"
		rule += "---:|---:|"
	}
	lines := []string{head, rule}
	task := func(ms float64) string {
		if ms > 0 {
			return fixed(ms, 0) + " ms"
		}
		return "none > 50 ms"
	}
	for _, r := range rows {
		apply := "—" // ours at or under the floor: the drop-in skips stages the floor pays
		if r.ApplyRatio != nil {
			apply = fixed(*r.ApplyRatio, 1) + "×"
		}
		line := fmt.Sprintf("| %d | %d | %d | %s | %s | %s | %s× | %s | %s | %s | %s× | %s |",
			r.Subscribers, r.Turns, r.Events, fixed(r.Official.PerEventUs, 1), fixed(r.Ours.PerEventUs, 1), fixed(r.Floor.PerEventUs, 1),
			fixed(r.Ratio, 2), fixed(r.Official.TotalMs, 0), fixed(r.Ours.TotalMs, 0), fixed(r.Floor.TotalMs, 0), fixed(r.TotalRatio, 1), apply)
		if lt {
			if r.LongTaskMs != nil {
				line += fmt.Sprintf(" %s | %s |", task(r.LongTaskMs.Official), task(r.LongTaskMs.Ours))
			} else {
				line += " — | — |"
			}
		}
		if !r.Same {
			line += " DIFFER"
		}
		lines = append(lines, line)
	}
	for _, r := range rows {
		if r.Pages > 1 {
			per := make([]string, len(r.PerPage))
			for i, x := range r.PerPage {
				per[i] = fixed(x, 2) + "×"
			}
			lines = append(lines, "", fmt.Sprintf("%d subscriber(s), %d turn(s): the median of %d pages, %d repetitions each (total ratio per page: %s).",
				r.Subscribers, r.Turns, r.Pages, r.Ours.Reps, strings.Join(per, ", ")))
		}
	}
	return strings.Join(lines, "\n")
}

// fixed formats x with d decimals, thousands separated.
func fixed(x float64, d int) string {
	s := fmt.Sprintf("%.*f", d, x)
	ip, fp, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(ip, "-")
	ip = strings.TrimPrefix(ip, "-")
	var b strings.Builder
	for i, c := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if neg {
		out = "-" + out
	}
	if fp != "" {
		out += "." + fp
	}
	return out
}

func thousands(n int64) string { return fixed(float64(n), 0) }

func kib(n int64) string { return fixed(float64(n)/1024, 1) }

// bytesKiB is "687,540 B (671.4 KiB)".
func bytesKiB(n int64) string { return thousands(n) + " B (" + kib(n) + " KiB)" }

// sig gives about three significant digits: 24.8, 408.9, 1,845.
func sig(x float64) string {
	if x >= 1000 {
		return fixed(x, 0)
	}
	return fixed(x, 1)
}

// ms is a duration in milliseconds: "42 ms", "1.1 s".
func ms(x float64) string {
	if x >= 1000 {
		return fixed(x/1000, 1) + " s"
	}
	return fixed(x, 0) + " ms"
}

// seconds is a total: "3.2 ms", "357 ms", "5.5 s", "94 s".
func seconds(x float64) string {
	switch {
	case x < 100:
		return fixed(x, 1) + " ms"
	case x < 1000:
		return fixed(x, 0) + " ms"
	case x < 10000:
		return fixed(x/1000, 1) + " s"
	}
	return fixed(math.Round(x/1000), 0) + " s"
}
