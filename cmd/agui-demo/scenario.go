package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// A scenario is one recorded agent run: canonical AG-UI events, one per
// line of a .jsonl file.
type scenario struct {
	name   string
	events []*value
	// ids are the message, tool-call and interrupt ids the recording
	// defines or refers to; they are made unique per run when replayed.
	ids []string
	// interrupts are the ids of the interrupts the run ends with.
	interrupts []string
}

// loadScenario reads a .jsonl recording (a leading UTF-8 BOM and blank
// lines are tolerated).
func loadScenario(name, path string) (*scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	sc := &scenario{name: name}
	seen := map[string]bool{}
	addID := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			sc.ids = append(sc.ids, id)
		}
	}
	lines := bufio.NewScanner(bytes.NewReader(data))
	lines.Buffer(nil, 64<<20)
	for n := 1; lines.Scan(); n++ {
		line := bytes.TrimSpace(lines.Bytes())
		if len(line) == 0 {
			continue
		}
		ev, err := parseValue(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if ev.kind != 'o' || ev.get("type").str() == "" {
			return nil, fmt.Errorf("%s:%d: not an AG-UI event (an object with a type)", path, n)
		}
		// Drop the producer's rawEvent: it is the upstream SDK's object,
		// not part of the AG-UI event, and would only bloat the stream.
		if ev.get("rawEvent") != nil {
			kept := ev.members[:0:0]
			for _, m := range ev.members {
				if m.key != "rawEvent" {
					kept = append(kept, m)
				}
			}
			ev.members = kept
		}
		collectIDs(ev, addID)
		if out := ev.get("outcome"); out.get("type").str() == "interrupt" {
			if list := out.get("interrupts"); list != nil {
				for _, in := range list.elems {
					id := in.get("id").str()
					addID(id)
					if id != "" {
						sc.interrupts = append(sc.interrupts, id)
					}
				}
			}
		}
		sc.events = append(sc.events, ev)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(sc.events) == 0 {
		return nil, fmt.Errorf("%s: no events", path)
	}
	return sc, nil
}

var idKeys = map[string]bool{"messageId": true, "toolCallId": true, "parentMessageId": true, "entityId": true}

func collectIDs(v *value, add func(string)) {
	switch v.kind {
	case 'o':
		for _, m := range v.members {
			if idKeys[m.key] && m.val.kind == 's' {
				add(m.val.text)
			} else {
				collectIDs(m.val, add)
			}
		}
	case 'a':
		for _, e := range v.elems {
			collectIDs(e, add)
		}
	}
}

// scenarioInfo describes a built-in scenario for the page's picker and for
// the keyword choice of "auto".
type scenarioInfo struct {
	name        string
	description string
	keywords    []string // word prefixes of the user's message, tried in table order
}

// builtin is in the order "auto" tries the keywords: the more specific
// scenarios come first ("weather in Paris and time in Tokyo in parallel"
// must pick parallel-tools, not tools).
var builtin = []scenarioInfo{
	{"interrupt", "A tool call that needs approval: the run ends with an interrupt", []string{"interrupt", "approv", "delete", "confirm"}},
	{"error", "Streams some text, then fails with RUN_ERROR", []string{"error", "fail", "crash"}},
	{"parallel-tools", "Two tool calls streamed side by side, then both results", []string{"parallel", "paris", "tokyo", "time"}},
	{"tool-validation", "Tool arguments checked against the tools' schemas as they stream: an invalid call, then one cut off", []string{"invalid", "validat", "schema", "truncat", "oslo", "packing"}},
	{"tools", "A tool call with streamed arguments, its result, then the answer", []string{"tool", "weather", "lisbon", "forecast"}},
	{"reasoning", "Reasoning first (collapsible, timed), then the answer", []string{"reason", "think", "thought", "puzzle", "chicken", "rabbit"}},
	{"state", "Shared state: STATE_SNAPSHOT, STATE_DELTA, citations", []string{"state", "cite", "citation", "source", "research", "memory", "wasm", "webassembly"}},
	{"activity", "An activity message (a plan) updated by ACTIVITY_DELTA", []string{"activity", "plan", "deploy", "progress"}},
	{"agui-1.0", "AG-UI 1.0 shapes: tool result content parts, an event type of a later version, a success outcome with pendingToolCallIds", []string{"mcp"}},
	{"frontend-tool", "A tool call the page answers (a frontend tool); no result from the agent", []string{"theme"}},
	{"text", "Plain streamed text", nil},
}

// catalog holds the scenarios the server can replay.
type catalog struct {
	byName map[string]*scenario
	order  []string // listed scenarios, built-in ones first
}

// loadCatalog loads every *.jsonl in dir.
func loadCatalog(dir string) (*catalog, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no scenarios (*.jsonl) in %s", dir)
	}
	c := &catalog{byName: map[string]*scenario{}}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		sc, err := loadScenario(name, f)
		if err != nil {
			return nil, err
		}
		c.byName[name] = sc
	}
	for _, b := range builtin {
		if c.byName[b.name] != nil {
			c.order = append(c.order, b.name)
		}
	}
	var extra []string
	for name := range c.byName {
		if info(name) == nil && !c.isResumeTurn(name) {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	c.order = append(c.order, extra...)
	return c, nil
}

// add registers a scenario loaded from elsewhere (the -scenario flag may
// name a file).
func (c *catalog) add(sc *scenario) {
	if c.byName[sc.name] == nil {
		c.order = append(c.order, sc.name)
	}
	c.byName[sc.name] = sc
}

func info(name string) *scenarioInfo {
	for i := range builtin {
		if builtin[i].name == name {
			return &builtin[i]
		}
	}
	return nil
}

// Resume turns are named after the scenario whose interrupt they resume:
// "<name>-approved" and "<name>-rejected".
var resumeSuffixes = []string{"-approved", "-rejected"}

func (c *catalog) isResumeTurn(name string) bool {
	for _, s := range resumeSuffixes {
		if p, ok := strings.CutSuffix(name, s); ok && c.byName[p] != nil && len(c.byName[p].interrupts) > 0 {
			return true
		}
	}
	return false
}

// pick chooses the scenario for a user message: the first built-in whose
// keyword starts one of the message's words, else "text".
func (c *catalog) pick(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, b := range builtin {
		if c.byName[b.name] == nil {
			continue
		}
		for _, k := range b.keywords {
			for _, w := range words {
				if strings.HasPrefix(w, k) {
					return b.name
				}
			}
		}
	}
	if c.byName["text"] != nil {
		return "text"
	}
	return c.order[0]
}

// resumeTarget finds the scenario that answers a resume of interruptID: the
// scenario that raised it (its recorded id, possibly suffixed with the run
// that replayed it) and the run id of that replay, then its "-approved" or
// "-rejected" turn.
func (c *catalog) resumeTarget(interruptID string, approved bool) (target *scenario, parent *scenario, prevRun string) {
	for _, name := range c.sortedNames() {
		sc := c.byName[name]
		for _, id := range sc.interrupts {
			run := ""
			if interruptID != id {
				r, ok := strings.CutPrefix(interruptID, id+"-")
				if !ok {
					continue
				}
				run = r
			}
			suffix := "-rejected"
			if approved {
				suffix = "-approved"
			}
			if t := c.byName[name+suffix]; t != nil {
				return t, sc, run
			}
		}
	}
	return nil, nil, ""
}

func (c *catalog) sortedNames() []string {
	names := make([]string, 0, len(c.byName))
	for n := range c.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
