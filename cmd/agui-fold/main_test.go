package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// build compiles agui-fold once for the tests that run it as a user would.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agui-fold")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

func run(t *testing.T, bin string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return o.String(), e.String(), code
}

func TestAguiFold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := build(t)
	stream := "../../testdata/streams/02_tool_call.jsonl"

	out, errOut, code := run(t, bin, "", stream)
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut)
	want, err := os.ReadFile("../../testdata/streams/02_tool_call.state.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(want), out, "prints the final state")

	out, _, code = run(t, bin, "", "-messages", stream)
	assert.Equal(t, 0, code)
	want, err = os.ReadFile("../../testdata/streams/02_tool_call.messages.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(want), out, "-messages prints runInput().messages")

	// Diagnostics go to stderr with line numbers; the exit status stays 0.
	in := "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x\",\"delta\":\"a\"}\n\nnot json\n{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n"
	out, errOut, code = run(t, bin, in, "-strict", "-")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "line 1: error order:")
	assert.Contains(t, errOut, "line 1: warning unknown_message:")
	assert.Contains(t, errOut, "line 3: error bad_json:")
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Len(t, st["messages"], 1)

	_, errOut, code = run(t, bin, "", "/does/not/exist.jsonl")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "agui-fold:")

	_, _, code = run(t, bin, "")
	assert.Equal(t, 2, code, "usage error")

	// An .sse file is read as an event stream; -dialect pins the dialect.
	out, errOut, code = run(t, bin, "", "-dialect", "sse-contract", "../../dialect/testdata/sse-contract/tools.sse")
	assert.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.NotEmpty(t, st["toolCalls"])
	_, errOut, code = run(t, bin, "", "-dialect", "streaming", "../../dialect/testdata/sse-contract/tools.sse")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "wrong_dialect")
	_, _, code = run(t, bin, "", "-dialect", "klingon", stream)
	assert.Equal(t, 2, code, "unknown dialect")
}
