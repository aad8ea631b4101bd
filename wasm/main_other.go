//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
	"time"
)

// The bridge only makes sense as WebAssembly; natively this package exists
// so that its logic (bridge.go) is tested with the race detector too.
func main() {
	fmt.Fprintln(os.Stderr, "agui wasm bridge: build with GOOS=js GOARCH=wasm (make wasm)")
	os.Exit(2)
}

func monotonicMs() float64 { return float64(time.Now().UnixNano()) / 1e6 }
