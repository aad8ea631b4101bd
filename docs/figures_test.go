package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const root = ".."

// TestFiguresAgree: docs/figures.md and every figure region of README.md and
// docs/*.md hold what make docs-figures writes from the recorded sources.
func TestFiguresAgree(t *testing.T) {
	src, err := ReadSource(root)
	if err != nil {
		t.Fatal(err)
	}
	figs := src.Figures()
	page, err := os.ReadFile(filepath.Join(root, figuresPage))
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != FiguresPage(figs) {
		t.Errorf("%s is not what the benchmark results and docs/figures.json give: run make docs-figures", figuresPage)
	}
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	regions := 0
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		regions += len(region.FindAllIndex(text, -1))
		want, unknown := Fill(string(text), figs)
		if len(unknown) > 0 {
			t.Errorf("%s: no figure named %s", p, strings.Join(unknown, ", "))
		}
		if want != string(text) {
			t.Errorf("%s quotes a figure that differs from docs/figures.md: run make docs-figures", p)
		}
	}
	if regions == 0 {
		t.Error("no page has a figure region")
	}
}

// A byte count of the size of a module: 687,540 B, 3.4 MiB, 671 KiB.
var sizeQuote = regexp.MustCompile(`\b\d{1,3}(?:,\d{3})+ ?(?:B|bytes)\b|\b\d+(?:\.\d+)? ?(?:KiB|MiB|KB|MB)\b`)

// moduleWord says a paragraph is about the module's size.
var moduleWord = regexp.MustCompile(`(?i)brotli|gzip|agui\.wasm|\bwasm\b`)

// TestNoStraySizes: outside a figure region, no paragraph that speaks of the
// module quotes a size, except the budget (700,000 bytes) and sizes said to be
// of another time ("at the time").
func TestNoStraySizes(t *testing.T) {
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		bare := region.ReplaceAllString(string(text), "")
		bare = regexp.MustCompile("(?s)```.*?```").ReplaceAllString(bare, "")
		for _, para := range regexp.MustCompile(`\n\s*\n`).Split(bare, -1) {
			if !moduleWord.MatchString(para) || strings.Contains(para, "at the time") {
				continue
			}
			for _, q := range sizeQuote.FindAllString(para, -1) {
				if strings.HasPrefix(q, "700,000") {
					continue
				}
				t.Errorf("%s quotes %q beside the module outside a figure region (<!-- figure NAME -->, docs/figures.md):\n%s", p, q, para)
			}
		}
	}
}
