package docs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shellBlock is a ```sh or ```json block of a page (also one indented in a
// list item), as shown.
type shellBlock struct {
	page, lang string
	line       int
	code       string
}

var anyFence = regexp.MustCompile("(?ms)^( *)```(sh|json)\n(.*?)^( *)```$")

func shellBlocks(t *testing.T) []shellBlock {
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "web/README.md")
	var blocks []shellBlock
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range anyFence.FindAllSubmatchIndex(text, -1) {
			indent := string(text[m[2]:m[3]])
			var lines []string
			for _, l := range strings.Split(string(text[m[6]:m[7]]), "\n") {
				lines = append(lines, strings.TrimPrefix(l, indent))
			}
			blocks = append(blocks, shellBlock{p, string(text[m[4]:m[5]]), 1 + strings.Count(string(text[:m[0]]), "\n"), strings.Join(lines, "\n")})
		}
	}
	return blocks
}

// commands are a shell block's commands: continuation lines joined, comments
// and a trailing & dropped, one command per line.
func commands(code string) []string {
	var out []string
	code = strings.ReplaceAll(code, "\\\n", " ")
	comment := regexp.MustCompile(`(^|\s+)#(\s.*)?$`)
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSuffix(strings.TrimSpace(comment.ReplaceAllString(l, "")), "&")
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// flagNames are the flags a command of cmd/ defines (flag.String("name", …),
// flag.StringVar(&v, "name", …), and the like), read from its sources.
func flagNames(t *testing.T, cmd string) map[string]bool {
	files, err := filepath.Glob(filepath.Join(root, "cmd", cmd, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command cmd/%s", cmd)
	}
	def := regexp.MustCompile(`flag\.[A-Z]\w*\((?:&\w+, )?"([\w-]+)"`)
	names := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range def.FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
	}
	return names
}

// TestShellBlocks: the commands the pages give to paste run what exists:
// every `make TARGET` names a target of the Makefile, every `go run
// ./cmd/NAME` a command of cmd/ and only flags it defines, every file
// argument of the repository exists; every JSON block parses.
func TestShellBlocks(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string]map[string]bool{}
	checked := 0
	for _, b := range shellBlocks(t) {
		where := b.page + ":" + itoa(b.line)
		if b.lang == "json" {
			if !json.Valid([]byte(b.code)) {
				t.Errorf("%s: the JSON block does not parse:\n%s", where, b.code)
			}
			continue
		}
		for _, c := range commands(b.code) {
			f := strings.Fields(c)
			switch {
			case f[0] == "make":
				for _, target := range f[1:] {
					if strings.Contains(target, "=") {
						continue // a variable: ARGS="…", FUZZTIME=30s
					}
					if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:`).Match(makefile) {
						t.Errorf("%s: make %s: the Makefile has no target %s", where, target, target)
					}
				}
				checked++
			case len(f) >= 3 && f[0] == "go" && f[1] == "run" && strings.HasPrefix(f[2], "./cmd/"):
				cmd := strings.TrimPrefix(f[2], "./cmd/")
				if flags[cmd] == nil {
					flags[cmd] = flagNames(t, cmd)
				}
				for _, arg := range f[3:] {
					if arg == "<" {
						break
					}
					if name, ok := strings.CutPrefix(arg, "-"); ok && name != "" {
						name, _, _ = strings.Cut(strings.TrimPrefix(name, "-"), "=")
						if !flags[cmd][name] {
							t.Errorf("%s: go run ./cmd/%s has no flag -%s", where, cmd, name)
						}
					} else if strings.HasPrefix(arg, "testdata/") {
						if _, err := os.Stat(filepath.Join(root, arg)); err != nil {
							t.Errorf("%s: %s does not exist", where, arg)
						}
					}
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d make and go run commands checked (are the blocks read?)", checked)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
