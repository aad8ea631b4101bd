package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// config is what the flags set.
type config struct {
	webDir   string     // served at /
	catalog  *catalog   // recorded runs
	scenario string     // "auto" or a scenario name: the default when the page names none
	speed    float64    // delay multiplier: 1 paces like a model, 0 sends at once
	upstream *url.URL   // when set, POST /agent is proxied there instead
	cors     corsPolicy // other origins allowed to use /agent (-cors)
	csp      string     // Content-Security-Policy of HTML pages: "" is pagePolicy, "off" none
	logf     func(string, ...any)
	// done, if set, is called when a replay ends (tests watch it).
	done func(name string, sent int, err error)
}

type server struct {
	config
	proxy *httputil.ReverseProxy
}

func newServer(cfg config) http.Handler {
	if cfg.logf == nil {
		cfg.logf = func(string, ...any) {}
	}
	if cfg.scenario == "" {
		cfg.scenario = "auto"
	}
	s := &server{config: cfg}
	if cfg.upstream != nil {
		up := cfg.upstream
		s.proxy = &httputil.ReverseProxy{
			Rewrite: func(r *httputil.ProxyRequest) {
				r.Out.URL = &url.URL{Scheme: up.Scheme, Host: up.Host, Path: up.Path, RawQuery: up.RawQuery}
				r.Out.Host = up.Host
			},
			FlushInterval:  -1, // stream every chunk as it arrives
			ModifyResponse: dropUpstreamCORS,
		}
	}
	mux := http.NewServeMux()
	agent := cfg.cors.withCORS("POST", nil, http.HandlerFunc(s.agent))
	mux.Handle("POST /agent", agent)
	mux.Handle("OPTIONS /agent", agent)
	mux.HandleFunc("GET /agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, "POST an AG-UI RunAgentInput (JSON) to /agent; the answer is a text/event-stream of AG-UI events")
	})
	scenarios := cfg.cors.withCORS("GET", nil, http.HandlerFunc(s.scenarios))
	mux.Handle("GET /scenarios", scenarios)
	mux.Handle("OPTIONS /scenarios", scenarios)
	csp := cfg.csp
	switch csp {
	case "":
		csp = pagePolicy
	case "off":
		csp = ""
	}
	mux.Handle("GET /", staticHandler(cfg.webDir, csp))
	return mux
}

// runAgentInput is the part of an AG-UI RunAgentInput the server reads.
type runAgentInput struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ForwardedProps json.RawMessage `json:"forwardedProps"`
	Resume         []struct {
		InterruptID string          `json:"interruptId"`
		Status      string          `json:"status"`
		Payload     json.RawMessage `json:"payload"`
	} `json:"resume"`
}

// lastUserText is the text of the last user message (string content, or
// the text parts of InputContent[]).
func (in *runAgentInput) lastUserText() string {
	for i := len(in.Messages) - 1; i >= 0; i-- {
		m := in.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			var b strings.Builder
			for _, p := range parts {
				if p.Type == "text" {
					b.WriteString(p.Text)
					b.WriteByte(' ')
				}
			}
			return b.String()
		}
		return ""
	}
	return ""
}

func (in *runAgentInput) requestedScenario() string {
	var fp struct {
		Scenario string `json:"scenario"`
	}
	if json.Unmarshal(in.ForwardedProps, &fp) != nil {
		return ""
	}
	return fp.Scenario
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Write(append(b, '\n'))
}

func (s *server) agent(w http.ResponseWriter, r *http.Request) {
	if s.proxy != nil {
		s.proxy.ServeHTTP(w, r)
		return
	}
	var in runAgentInput
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20))
	if err := dec.Decode(&in); err != nil {
		httpError(w, http.StatusBadRequest, "the body must be an AG-UI RunAgentInput (JSON): "+err.Error())
		return
	}
	if in.ThreadID == "" {
		in.ThreadID = "thread-" + randomID()
	}
	if in.RunID == "" {
		in.RunID = "run-" + randomID()
	}

	sc, ids, err := s.choose(&in)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.replay(w, r.Context(), sc, ids, &in)
}

// choose picks the scenario for a request and the id mapping of its replay:
// every recorded id gets the run id as suffix, so the ids of a second turn
// do not collide with the first; a resume turn refers to the ids of the run
// that raised the interrupt with that run's suffix.
func (s *server) choose(in *runAgentInput) (*scenario, map[string]string, error) {
	ids := map[string]string{}
	if len(in.Resume) > 0 {
		res := in.Resume[0]
		var p struct {
			Approved *bool `json:"approved"`
		}
		_ = json.Unmarshal(res.Payload, &p)
		approved := res.Status != "cancelled" && (p.Approved == nil || *p.Approved)
		if target, parent, prevRun := s.catalog.resumeTarget(res.InterruptID, approved); target != nil {
			for _, id := range target.ids {
				ids[id] = suffixed(id, in.RunID)
			}
			for _, id := range parent.ids {
				if _, ok := ids[id]; ok {
					ids[id] = suffixed(id, prevRun)
				}
			}
			return target, ids, nil
		}
	}
	name := in.requestedScenario()
	if name == "" || name == "auto" {
		name = s.scenario
	}
	if name == "" || name == "auto" {
		name = s.catalog.pick(in.lastUserText())
	}
	sc := s.catalog.byName[name]
	if sc == nil {
		return nil, nil, fmt.Errorf("unknown scenario %q (GET /scenarios lists them)", name)
	}
	for _, id := range sc.ids {
		ids[id] = suffixed(id, in.RunID)
	}
	return sc, ids, nil
}

func suffixed(id, run string) string {
	if run == "" {
		return id
	}
	return id + "-" + run
}

// replay streams the scenario as text/event-stream, one "data:" frame per
// event, flushed one by one and paced like a model; it stops when the
// client goes away.
func (s *server) replay(w http.ResponseWriter, ctx context.Context, sc *scenario, ids map[string]string, in *runAgentInput) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("X-Agui-Scenario", sc.name)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)

	start := time.Now()
	sent := 0
	var err error
	var buf []byte
	for _, ev := range sc.events {
		if d := s.delay(ev); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		if err = ctx.Err(); err != nil {
			break
		}
		buf = append(buf[:0], "data: "...)
		buf = s.render(buf, ev, ids, in)
		buf = append(buf, "\n\n"...)
		if _, err = w.Write(buf); err != nil {
			break
		}
		if err = rc.Flush(); err != nil {
			break
		}
		sent++
	}
	if err != nil {
		s.logf("agent: run %s, scenario %s: stopped after %d of %d events (%v)", in.RunID, sc.name, sent, len(sc.events), err)
	} else {
		s.logf("agent: run %s, scenario %s: %d events in %v", in.RunID, sc.name, sent, time.Since(start).Round(time.Millisecond))
	}
	if s.done != nil {
		s.done(sc.name, sent, err)
	}
}

// render appends the event as sent: ids rewritten, threadId/runId set to
// the request's, and a timestamp (milliseconds) when the recording has
// none, so that reasoning durations reflect the pacing.
func (s *server) render(dst []byte, ev *value, ids map[string]string, in *runAgentInput) []byte {
	out := ev.rewrite(ids)
	hasTS := false
	for i, m := range out.members {
		switch m.key {
		case "threadId":
			out.members[i].val = &value{kind: 's', text: in.ThreadID}
		case "runId":
			out.members[i].val = &value{kind: 's', text: in.RunID}
		case "timestamp":
			hasTS = true
		}
	}
	dst = out.appendJSON(dst)
	if !hasTS {
		dst = dst[:len(dst)-1]
		dst = append(dst, `,"timestamp":`...)
		dst = strconv.AppendInt(dst, time.Now().UnixMilli(), 10)
		dst = append(dst, '}')
	}
	return dst
}

// delay is the pause before an event, at speed 1: tokens every 8–20 ms,
// a think before each message, a slow tool.
func (s *server) delay(ev *value) time.Duration {
	if s.speed <= 0 {
		return 0
	}
	var ms float64
	switch t := ev.get("type").str(); t {
	case "RUN_STARTED":
		ms = 0
	case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_CONTENT",
		"TOOL_CALL_ARGS", "TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_CHUNK", "TOOL_CALL_CHUNK":
		ms = 8 + rand.Float64()*12
	case "TOOL_CALL_RESULT":
		ms = 400
	case "TEXT_MESSAGE_START", "REASONING_START", "THINKING_START":
		ms = 250
	case "TOOL_CALL_START":
		ms = 150
	case "STATE_SNAPSHOT", "STATE_DELTA":
		ms = 250
	case "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA":
		ms = 350
	case "RUN_ERROR":
		ms = 300
	default:
		ms = 30
	}
	return time.Duration(ms * s.speed * float64(time.Millisecond))
}

// scenarios lists the replayable scenarios for the page's picker.
func (s *server) scenarios(w http.ResponseWriter, r *http.Request) {
	type item struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Events      int    `json:"events"`
	}
	out := struct {
		Default   string `json:"default"`
		Proxy     bool   `json:"proxy"`
		Scenarios []item `json:"scenarios"`
	}{Default: s.scenario, Proxy: s.proxy != nil, Scenarios: []item{}}
	for _, name := range s.catalog.order {
		it := item{Name: name, Events: len(s.catalog.byName[name].events)}
		if inf := info(name); inf != nil {
			it.Description = inf.description
		}
		out.Scenarios = append(out.Scenarios, it)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}

func randomID() string {
	var b [6]byte
	crand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b[:])
}
