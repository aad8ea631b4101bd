package docs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// quotedBytes is the number of bytes a size quote says.
func quotedBytes(q string) float64 {
	num := regexp.MustCompile(`[\d,.]+`).FindString(q)
	v, _ := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	switch {
	case strings.HasSuffix(q, "KiB"), strings.HasSuffix(q, "KB"):
		v *= 1024
	case strings.HasSuffix(q, "MiB"), strings.HasSuffix(q, "MB"):
		v *= 1 << 20
	}
	return v
}

// moduleWord says a paragraph is about the module's size.
var moduleWord = regexp.MustCompile(`(?i)brotli|gzip|agui\.wasm`)

// TestNoStraySizes: outside a figure region, no paragraph that speaks of the
// module (brotli, gzip, agui.wasm) quotes a size the module could have, except the budget (720,000 bytes) and sizes said to be
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
				if strings.HasPrefix(q, "720,000") || quotedBytes(q) < 200_000 {
					continue // the budget, or too small to be the module (a JS bundle)
				}
				t.Errorf("%s quotes %q beside the module outside a figure region (<!-- figure NAME -->, docs/figures.md):\n%s", p, q, para)
			}
		}
	}
}

// slug is GitHub's anchor for a heading.
func slug(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = regexp.MustCompile("[`*_]").ReplaceAllString(h, "")
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '—' && r != '→' && r != '…':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestLinks: every relative link of README.md and docs/*.md names a file of
// the repository, and an anchor a heading of that page.
func TestLinks(t *testing.T) {
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, figuresPage, "web/README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(rel string) map[string]bool {
		if a, ok := anchors[rel]; ok {
			return a
		}
		a := map[string]bool{}
		text, err := os.ReadFile(filepath.Join(root, rel))
		if err == nil {
			text = regexp.MustCompile("(?ms)^```.*?^```").ReplaceAll(text, nil)
			for _, m := range heading.FindAllSubmatch(text, -1) {
				a[slug(string(m[1]))] = true
			}
		}
		anchors[rel] = a
		return a
	}
	for _, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		text = regexp.MustCompile("(?ms)^```.*?^```").ReplaceAll(text, nil)
		for _, m := range link.FindAllSubmatch(text, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			rel := p
			if file != "" {
				rel = filepath.ToSlash(filepath.Join(filepath.Dir(p), file))
				if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
					t.Errorf("%s links to %s, which does not exist", p, target)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(rel, ".md") && !anchorsOf(rel)[anchor] {
				t.Errorf("%s links to %s: %s has no heading with that anchor", p, target, rel)
			}
		}
	}
}

// The whole-conversation ratio is the totals' (never an estimated one), and
// the growth bar says whether every runtime meets it.
func TestReducerTotalRatioAndGrowthBar(t *testing.T) {
	var r reducerResults
	if err := json.Unmarshal([]byte(`{"runtime": {"name": "node", "version": "v20.1.0"}, "lengths": [
		{"turns": 5, "ours": {"perEventUs": 2, "totalMs": 1}, "official": {"totalMs": 10}},
		{"turns": 100, "ours": {"perEventUs": 2.5, "totalMs": 80}, "official": {"totalMs": 6400}},
		{"turns": 400, "ours": {"perEventUs": 3, "totalMs": 300}, "official": {"totalMs": 100000, "totalEstimated": true}}]}`), &r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{reducerTotalRatio(5, &r), "10× in Node 20"},
		{reducerTotalRatio(100, &r), "80× in Node 20"},
		{reducerTotalRatio(400, &r), ""},
		{growthBar(1.3, &r), "NOT met: 1.50× (Node 20)"},
		{growthBar(2, &r), "met: 1.50× (Node 20)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
