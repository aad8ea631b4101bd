//go:build js && wasm

package main

import (
	"unsafe"
)

// started is set once main runs.
var started bool

// main marks the module ready, then keeps the runtime alive.
//
// The module imports neither syscall/js nor os nor time (together about
// 80 KB of the brotli-compressed module): no exported function needs them.
// It needs no ready callback either: wasm_exec.js's go.run() runs the
// program synchronously until main blocks here, so when go.run() returns,
// the exports are callable and ready() reports 1 (web/agui.js checks it).
func main() {
	started = true
	select {}
}

//go:wasmexport ready
func wasmReady() int32 {
	if started {
		return 1
	}
	return 0
}

// nanotime is the runtime's monotonic clock. The runtime keeps it reachable
// by linkname on purpose ("many external packages also linkname nanotime");
// the time package would bring syscall/js into the module.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

func monotonicMs() float64 { return float64(nanotime()) / 1e6 }

// Buffers. JS re-reads outPtr after every call (append may move it) and
// re-creates its memory views when the wasm memory grows.

//go:wasmexport inPtr
func wasmInPtr() unsafe.Pointer { return unsafe.Pointer(&in[0]) }

//go:wasmexport inCap
func wasmInCap() int32 { return int32(len(in)) }

// growIn enlarges the input buffer to at least n bytes, keeping its content.
//
//go:wasmexport growIn
func wasmGrowIn(n int32) unsafe.Pointer {
	if int(n) > len(in) {
		b := make([]byte, max(int(n), 2*len(in)))
		copy(b, in)
		in = b
	}
	return unsafe.Pointer(&in[0])
}

//go:wasmexport outPtr
func wasmOutPtr() unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(out)) }

// Reducers. Arguments of n bytes are at the start of the input buffer.

//go:wasmexport create
func wasmCreate(n int32) (r int32) {
	defer recoverCall(0, &r)
	return create(in[:n])
}

//go:wasmexport dispose
func wasmDispose(h int32) (r int32) {
	defer recoverCall(h, &r)
	return dispose(h)
}

// apply: the SSE event name (nameLen bytes) then the event JSON (dataLen
// bytes). The per-event entry point.
//
//go:wasmexport apply
func wasmApply(h, nameLen, dataLen int32) (r int32) {
	defer recoverCall(h, &r)
	return apply(h, in[:nameLen], in[nameLen:nameLen+dataLen])
}

// applyCompact: apply, with the compact form for a single text append
// (bridge.go describes it).
//
//go:wasmexport applyCompact
func wasmApplyCompact(h, nameLen, dataLen int32) (r int32) {
	defer recoverCall(h, &r)
	return applyCompact(h, in[:nameLen], in[nameLen:nameLen+dataLen])
}

// applyToken: a streamed token's id (idLen bytes) then its delta
// (deltaLen bytes), as text (bridge.go describes it).
//
//go:wasmexport applyToken
func wasmApplyToken(h, kind, idLen, deltaLen int32) (r int32) {
	defer recoverCall(h, &r)
	return applyToken(h, kind, in[:idLen], in[idLen:idLen+deltaLen])
}

//go:wasmexport feed
func wasmFeed(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return feed(h, in[:n])
}

//go:wasmexport setLastEventId
func wasmSetLastEventID(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return setLastEventID(h, in[:n])
}

//go:wasmexport checkEventId
func wasmCheckEventID(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return checkEventID(h, in[:n])
}

//go:wasmexport lastEventId
func wasmLastEventID(h int32) (r int32) {
	defer recoverCall(h, &r)
	return lastEventID(h)
}

//go:wasmexport endStream
func wasmEndStream(h int32) (r int32) {
	defer recoverCall(h, &r)
	return endStream(h)
}

//go:wasmexport running
func wasmRunning(h int32) (r int32) {
	defer recoverCall(h, &r)
	return running(h)
}

//go:wasmexport stop
func wasmStop(h int32) (r int32) {
	defer recoverCall(h, &r)
	return stop(h)
}

//go:wasmexport addUserMessage
func wasmAddUserMessage(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return addUserMessage(h, in[:n])
}

//go:wasmexport addToolResult
func wasmAddToolResult(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return addToolResult(h, in[:n])
}

//go:wasmexport fail
func wasmFail(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return fail(h, in[:n])
}

//go:wasmexport setState
func wasmSetState(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return setState(h, in[:n])
}

//go:wasmexport setMessages
func wasmSetMessages(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return setMessages(h, in[:n])
}

//go:wasmexport reset
func wasmReset(h int32) (r int32) {
	defer recoverCall(h, &r)
	return reset(h)
}

//go:wasmexport snapshot
func wasmSnapshot(h int32) (r int32) {
	defer recoverCall(h, &r)
	return snapshot(h)
}

//go:wasmexport restore
func wasmRestore(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return restore(h, in[:n])
}

//go:wasmexport setTools
func wasmSetTools(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return setTools(h, in[:n])
}

//go:wasmexport runInput
func wasmRunInput(h, n int32) (r int32) {
	defer recoverCall(h, &r)
	return runInput(h, in[:n])
}

//go:wasmexport messages
func wasmMessages(h int32) (r int32) {
	defer recoverCall(h, &r)
	return messages(h)
}
