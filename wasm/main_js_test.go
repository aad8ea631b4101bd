//go:build js && wasm

package main

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// put writes the arguments of an export call into the input buffer.
func put(parts ...string) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	wasmGrowIn(int32(n))
	n = 0
	for _, p := range parts {
		n += copy(in[n:], p)
	}
}

func TestExports(t *testing.T) {
	put(`{"deterministicIds":true}`)
	h := wasmCreate(25)
	require.Positive(t, h)
	defer wasmDispose(h)

	ev := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	put("", ev)
	n := wasmApply(h, 0, int32(len(ev)))
	require.Positive(t, n)
	require.Equal(t, unsafe.Pointer(&out[0]), wasmOutPtr())
	require.Contains(t, string(out[:n]), `"/status","value":"running"`)

	// The SSE event name travels before the data.
	ev = `{"type":"TEXT_MESSAGE_START","messageId":"m"}`
	put("message", ev)
	require.Positive(t, wasmApply(h, 7, int32(len(ev))))

	// Out-of-range lengths panic inside the export: recovered, reported,
	// and the record resynchronises the state.
	n = wasmApply(h, 10, 1<<30)
	require.Negative(t, n)
	s := string(out[:-n])
	require.Contains(t, s, `"code":"panic"`)
	require.Contains(t, s, `{"op":"replace","path":"","value":{`)

	chunk := "data: " + `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hé"}` + "\n\n"
	put(chunk)
	n = wasmFeed(h, int32(len(chunk)))
	require.Positive(t, n)
	require.Contains(t, string(out[:n]), `"op":"append"`)

	require.Positive(t, wasmSnapshot(h))
	require.Equal(t, int32(1), wasmRunning(h))
	require.Positive(t, wasmStop(h))
	require.Equal(t, int32(0), wasmRunning(h))
	put(`["hi","u1"]`)
	require.Positive(t, wasmAddUserMessage(h, 11))
	put(`["c","x"]`)
	require.Positive(t, wasmAddToolResult(h, 9))
	put(`["down","net"]`)
	require.Positive(t, wasmFail(h, 13))
	require.Positive(t, wasmRunInput(h, 0))
	require.Positive(t, wasmMessages(h))
	require.Zero(t, wasmEndStream(h))
	require.Positive(t, wasmSnapshot(h))
	snap := string(out[:wasmSnapshot(h)])
	require.Positive(t, wasmReset(h))
	put(snap)
	require.Positive(t, wasmRestore(h, int32(len(snap))))
	require.Equal(t, snap, string(out[:wasmSnapshot(h)]))

	require.Zero(t, wasmDispose(h))
	require.Negative(t, wasmSnapshot(h), "disposed")
}

func TestGrowInKeepsContent(t *testing.T) {
	copy(in, "abc")
	old := len(in)
	p := wasmGrowIn(int32(old + 1))
	require.Equal(t, unsafe.Pointer(&in[0]), p)
	require.GreaterOrEqual(t, int(wasmInCap()), old+1)
	require.Equal(t, "abc", string(in[:3]))
	require.Equal(t, p, wasmInPtr())
}
