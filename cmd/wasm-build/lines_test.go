package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestStripLinesRejects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		module []byte
		want   string
	}{
		{"not wasm", []byte("hello, world"), "not a WebAssembly module"},
		{"cut short", []byte("\x00asm\x01\x00\x00\x00\x0a\x05\x01"), "section cut short"},
		{"no data", []byte("\x00asm\x01\x00\x00\x00\x0a\x01\x00"), "no code or data section"},
		{"no pclntab", []byte("\x00asm\x01\x00\x00\x00\x0a\x01\x00\x0b\x07\x01\x00\x41\x00\x0b\x01\x07"), "no Go 1.20+ pclntab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := stripLines(tc.module)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestStripLinesRuns builds testdata/panics for js/wasm, strips it, and
// runs it under Node: stack growth, garbage collection and recover work,
// and the final panic's trace names functions without files and lines.
func TestStripLinesRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a wasm module")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command:", err)
	}
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node command")
	}
	dir := t.TempDir()
	built := filepath.Join(dir, "built.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", built, "./testdata/panics")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	stripped, st, err := stripLines(raw)
	if err != nil {
		t.Fatal(err)
	}
	if st.funcs == 0 || st.tables == 0 || st.bytes == 0 {
		t.Fatalf("stats %+v: nothing cleared", st)
	}
	if len(stripped) != len(raw) || !bytes.Equal(codeSection(t, stripped), codeSection(t, raw)) {
		t.Fatal("the code section or the module's length changed")
	}
	again, st2, err := stripLines(stripped)
	if err != nil || !bytes.Equal(again, stripped) || st2.tables != 0 {
		t.Fatalf("stripping twice: err %v, %+v, same bytes %v", err, st2, bytes.Equal(again, stripped))
	}

	for _, tc := range []struct {
		name       string
		module     []byte
		wantFrames string
	}{
		{"as built", raw, "main.go:"},
		{"stripped", stripped, "?:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".wasm")
			if err := os.WriteFile(path, tc.module, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(node, runner, path).CombinedOutput()
			if err == nil {
				t.Fatalf("exit status 0, want the panic's\n%s", out)
			}
			for _, want := range []string{"recovered: runtime error: index out of range [2000] with length 0", "panic: for good", "main.main()", tc.wantFrames} {
				if !bytes.Contains(out, []byte(want)) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func codeSection(t *testing.T, module []byte) []byte {
	t.Helper()
	sections, err := parseSections(module)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sections {
		if s.id == wasmSectionCode {
			return s.payload
		}
	}
	t.Fatal("no code section")
	return nil
}
