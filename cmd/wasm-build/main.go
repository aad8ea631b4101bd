// Command wasm-build builds the WebAssembly reducer for the web module
// (make wasm):
//
//   - GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w -buildid=' ./wasm
//     into web/dist/agui.wasm, its file and line tables cleared (lines.go;
//     -lines keeps them, for stack traces with file:line while debugging).
//     No build ID: the same source builds the same bytes, and the module's
//     compressed size moves with its code only (a build ID, which changes
//     with any edit, moved the brotli size by up to ~700 bytes);
//   - wraps wasm_exec.js from the same Go toolchain (its import object
//     changes between Go versions) into an ES module, web/dist/wasm_exec.js,
//     that exports the Go class and the toolchain's version: bundlers then
//     follow a plain import to it, and the loader reports a module whose
//     imports this glue does not define (another toolchain) as such;
//   - writes agui.wasm.gz (gzip -9) and agui.wasm.br (brotli -q 11) for
//     servers that serve precompressed files;
//   - prints the raw, gzip and brotli sizes, and warns when the brotli size
//     is past the module's budget, 720,000 bytes (-budget; web/test/unit/size.test.mjs
//     fails make test on it).
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
	"errors"
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
	lines := flag.Bool("lines", false, "keep the file and line tables (stack traces with file:line; about 70 KB more brotli)")
	budget := flag.Int64("budget", 720000, "warn when the brotli copy is larger (bytes)")
	flag.Parse()
	if err := build(*outDir, *pkg, *quality, *lines, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "wasm-build:", err)
		os.Exit(1)
	}
}

func build(outDir, pkg string, quality int, lines bool, budget int64) error {
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
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", tmpPath, pkg)
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
	version, err := exec.Command(goCmd, "env", "GOVERSION").Output()
	if err != nil {
		return fmt.Errorf("go env GOVERSION: %w", err)
	}
	glue := wrapGlue(execJS, strings.TrimSpace(string(version)))
	if err := os.WriteFile(filepath.Join(outDir, "wasm_exec.js"), glue, 0o644); err != nil {
		return err
	}

	raw, err := os.ReadFile(tmpPath)
	if err != nil {
		return err
	}
	stripped := "file and line tables kept (-lines)"
	if !lines {
		out, st, err := stripLines(raw)
		if err != nil {
			// The module works as built: only larger.
			fmt.Fprintf(os.Stderr, "wasm-build: warning: file and line tables kept: %v\n", err)
			stripped = "file and line tables kept: " + err.Error()
		} else {
			raw = out
			stripped = fmt.Sprintf("file and line tables of %d functions cleared (%d bytes)", st.funcs, st.bytes)
			if err := os.WriteFile(tmpPath, raw, 0o644); err != nil {
				return err
			}
		}
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
		report(wasmPath, "unchanged", stripped, len(raw), len(gzOld), brSize, string(root))
		checkBudget(brOld, brErr, budget)
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
	var brInfo os.FileInfo
	brErr = errors.New("skipped")
	if br != nil {
		if err := br.Wait(); err != nil {
			return fmt.Errorf("brotli: %w", err)
		}
		brInfo, brErr = os.Stat(brPath)
		if brErr != nil {
			return brErr
		}
		brSize = sizeString(brInfo.Size())
	}
	report(wasmPath, fmt.Sprintf("built in %.1fs", buildTime.Seconds()), stripped, len(raw), gz.Len(), brSize, string(root))
	checkBudget(brInfo, brErr, budget)
	return nil
}

// checkBudget warns when the brotli copy is past the module's budget: the
// build still succeeds (make run works), web/test/unit/size.test.mjs fails.
func checkBudget(br os.FileInfo, err error, budget int64) {
	if err == nil && budget > 0 && br.Size() > budget {
		fmt.Fprintf(os.Stderr, "wasm-build: warning: agui.wasm is %d bytes brotli, past its budget of %d bytes (docs/performance.md, Download size)\n", br.Size(), budget)
	}
}

// wrapGlue makes the toolchain's wasm_exec.js, a classic script that sets
// globalThis.Go, into an ES module exporting that class: the script runs
// unchanged, then globalThis.Go is put back as it was, so that two copies
// (another Go version's, say) never see each other's class.
func wrapGlue(execJS []byte, goVersion string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Generated by cmd/wasm-build (make wasm): wasm_exec.js of %s, the\n", goVersion)
	b.WriteString("// toolchain that built agui.wasm, as an ES module. Do not edit.\n\n")
	fmt.Fprintf(&b, "export const goVersion = %q;\n\n", goVersion)
	b.WriteString("const previousGo = globalThis.Go;\n\n")
	b.Write(execJS)
	b.WriteString("\nexport const Go = globalThis.Go;\n")
	b.WriteString("if (previousGo === undefined) delete globalThis.Go;\nelse globalThis.Go = previousGo;\n")
	return b.Bytes()
}

func sizeString(n int64) string { return fmt.Sprintf("%9d bytes (%.0f KiB)", n, float64(n)/1024) }

func report(wasmPath, how, stripped string, raw, gz int, br, goroot string) {
	fmt.Printf("%s (%s; %s)\n", wasmPath, how, stripped)
	fmt.Printf("  %-7s %s\n", "raw", sizeString(int64(raw)))
	fmt.Printf("  %-7s %s\n", "gzip", sizeString(int64(gz)))
	fmt.Printf("  %-7s %s\n", "brotli", br)
	fmt.Printf("%s (from %s)\n", filepath.Join(filepath.Dir(wasmPath), "wasm_exec.js"), strings.TrimSpace(goroot))
}
