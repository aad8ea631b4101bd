package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock is a ```go block of a page.
type goBlock struct {
	page string
	line int
	code string
}

var fence = regexp.MustCompile("(?ms)^```go\n(.*?)^```$")

func goBlocks(t *testing.T) []goBlock {
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []goBlock
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fence.FindAllSubmatchIndex(text, -1) {
			blocks = append(blocks, goBlock{p, 1 + strings.Count(string(text[:m[0]]), "\n"), string(text[m[2]:m[3]])})
		}
	}
	return blocks
}

// imports are the packages a block that is not a whole program may name.
var imports = map[string]string{
	"bytes":    "bytes",
	"fmt":      "fmt",
	"io":       "io",
	"log":      "log",
	"os":       "os",
	"strings":  "strings",
	"dialect":  "github.com/agui-reducer/agui/dialect",
	"reducer":  "github.com/agui-reducer/agui/reducer",
	"jsontree": "github.com/agui-reducer/agui/reducer/jsontree",
}

// program makes a block a program: a block that starts with "package main"
// is one; any other is the body of main, given the imports it names.
func program(code string) string {
	if strings.HasPrefix(code, "package main") {
		return code
	}
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n")
	uncommented := regexp.MustCompile(`(?m)//.*$`).ReplaceAllString(code, "")
	for name, path := range imports {
		if regexp.MustCompile(`\b` + name + `\.`).MatchString(uncommented) {
			fmt.Fprintf(&b, "\t%q\n", path)
		}
	}
	b.WriteString(")\n\nfunc main() {\n")
	b.WriteString(code)
	b.WriteString("}\n")
	return b.String()
}

// output is what the block's "// Output:" comment says it prints (ok false
// without one).
func output(code string) (string, bool) {
	_, after, ok := strings.Cut(code, "// Output:\n")
	if !ok {
		return "", false
	}
	var lines []string
	for _, l := range strings.Split(after, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "//") {
			break
		}
		lines = append(lines, strings.TrimSpace(strings.TrimPrefix(l, "//")))
	}
	return strings.Join(lines, "\n"), true
}

// TestGoBlocks: every Go block of README.md and docs/*.md compiles and runs
// (as a program in a module of its own that requires this one, replaced by
// this checkout), printing what its "// Output:" comment says.
func TestGoBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per block")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("no Go block in the pages")
	}
	dir := t.TempDir()
	mod := fmt.Sprintf("module docsnippets\n\ngo 1.26\n\nrequire github.com/agui-reducer/agui v0.0.0\n\nreplace github.com/agui-reducer/agui => %s\n", repo)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(repo, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, b := range blocks {
		name := fmt.Sprintf("%s:%d", b.page, b.line)
		t.Run(name, func(t *testing.T) {
			pkg := filepath.Join(dir, fmt.Sprintf("block%d", i))
			if err := os.Mkdir(pkg, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(program(b.code)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(goTool, "run", "./"+filepath.Base(pkg))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOOS=", "GOARCH=")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the Go block at %s does not run: %v\n%s\n%s", name, err, out, program(b.code))
			}
			if want, ok := output(b.code); ok && strings.TrimSpace(string(out)) != want {
				t.Errorf("the Go block at %s prints\n%s\nits // Output: says\n%s", name, out, want)
			}
		})
	}
}
