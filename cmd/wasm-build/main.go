// Command wasm-build builds the WebAssembly reducer for the web module
// (make wasm):
//
//   - GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' ./wasm into
//     web/dist/agui.wasm;
//   - copies wasm_exec.js from the same Go toolchain (its import object
//     changes between Go versions) to web/dist/wasm_exec.js;
//   - writes agui.wasm.gz (gzip -9) and agui.wasm.br (brotli -q 11) for
//     servers that serve precompressed files;
//   - prints the raw, gzip and brotli sizes.
//
// Brotli comes from Debian's brotli command (apt-get install brotli): the
// pure-Go encoder github.com/andybalholm/brotli writes byte-for-byte the
// same size at quality 11 but takes about 12.5 s against 7–8 s, so it would
// be a dependency bought for nothing. Without the command the .br copy is
// skipped with a warning.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	outDir := flag.String("o", "web/dist", "output directory")
	pkg := flag.String("pkg", "./wasm", "package to build")
	quality := flag.Int("brotli", 11, "brotli quality (0–11); -1 skips the .br copy")
	flag.Parse()
	if err := build(*outDir, *pkg, *quality); err != nil {
		fmt.Fprintln(os.Stderr, "wasm-build:", err)
		os.Exit(1)
	}
}

func build(outDir, pkg string, quality int) error {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	wasmPath := filepath.Join(outDir, "agui.wasm")
	tmpPath := wasmPath + ".tmp"
	start := time.Now()
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", tmpPath, pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	buildTime := time.Since(start)

	// wasm_exec.js from the toolchain that just built the module.
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(outDir, "wasm_exec.js"), execJS, 0o644); err != nil {
		return err
	}

	raw, err := os.ReadFile(tmpPath)
	if err != nil {
		return err
	}
	// An unchanged module keeps its compressed copies: brotli -q 11 costs
	// seconds on every make test otherwise.
	old, _ := os.ReadFile(wasmPath)
	gzOld, gzErr := os.ReadFile(wasmPath + ".gz")
	brOld, brErr := os.Stat(wasmPath + ".br")
	if bytes.Equal(old, raw) && gzErr == nil && (brErr == nil || quality < 0) {
		_ = os.Remove(tmpPath)
		brSize := "skipped"
		if brErr == nil {
			brSize = sizeString(brOld.Size())
		}
		report(wasmPath, "unchanged", len(raw), len(gzOld), brSize, string(root))
		return nil
	}
	if err := os.Rename(tmpPath, wasmPath); err != nil {
		return err
	}
	// brotli -q 11 takes seconds: run it while gzip compresses.
	brPath := wasmPath + ".br"
	_ = os.Remove(brPath)
	var br *exec.Cmd
	if quality >= 0 {
		if _, err := exec.LookPath("brotli"); err != nil {
			fmt.Fprintln(os.Stderr, "wasm-build: warning: no brotli command (apt-get install brotli); skipping", brPath)
		} else {
			br = exec.Command("brotli", "-f", "-q", fmt.Sprint(quality), "-o", brPath, wasmPath)
			br.Stderr = os.Stderr
			if err := br.Start(); err != nil {
				return fmt.Errorf("brotli: %w", err)
			}
		}
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(wasmPath+".gz", gz.Bytes(), 0o644); err != nil {
		return err
	}
	brSize := "skipped"
	if br != nil {
		if err := br.Wait(); err != nil {
			return fmt.Errorf("brotli: %w", err)
		}
		fi, err := os.Stat(brPath)
		if err != nil {
			return err
		}
		brSize = sizeString(fi.Size())
	}
	report(wasmPath, fmt.Sprintf("built in %.1fs", buildTime.Seconds()), len(raw), gz.Len(), brSize, string(root))
	return nil
}

func sizeString(n int64) string { return fmt.Sprintf("%9d bytes (%.0f KiB)", n, float64(n)/1024) }

func report(wasmPath, how string, raw, gz int, br, goroot string) {
	fmt.Printf("%s (%s)\n", wasmPath, how)
	fmt.Printf("  %-7s %s\n", "raw", sizeString(int64(raw)))
	fmt.Printf("  %-7s %s\n", "gzip", sizeString(int64(gz)))
	fmt.Printf("  %-7s %s\n", "brotli", br)
	fmt.Printf("%s (from %s)\n", filepath.Join(filepath.Dir(wasmPath), "wasm_exec.js"), strings.TrimSpace(goroot))
}
