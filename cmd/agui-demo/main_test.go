package main

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDescribeAgent: the start-up log names where runs come from: the
// scenario file given, the scenarios folder, or the upstream (its password
// redacted).
func TestDescribeAgent(t *testing.T) {
	up, err := url.Parse("http://user:secret@127.0.0.1:8000/agent")
	assert.NoError(t, err)
	for _, c := range []struct {
		upstream         *url.URL
		source, scenario string
		speed            float64
		want             string
	}{
		{nil, "testdata/streams/02_tool_call.jsonl", "02_tool_call", 1, "replaying testdata/streams/02_tool_call.jsonl (speed 1)"},
		{nil, "/repo/testdata/scenarios", "auto", 0.5, "replaying /repo/testdata/scenarios (scenario auto, speed 0.5)"},
		{nil, "/my/runs", "tools", 1, "replaying /my/runs (scenario tools, speed 1)"},
		{up, "/repo/testdata/scenarios", "auto", 1, "relayed from http://user:xxxxx@127.0.0.1:8000/agent"},
	} {
		assert.Equal(t, c.want, describeAgent(c.upstream, c.source, c.scenario, c.speed))
	}
}
