package docs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// screenshotRecord is docs/screenshots.json, written by make
// docs-screenshots (web/test/demo/screenshots.mjs) with the pictures.
type screenshotRecord struct {
	Pictures []string `json:"pictures"`
	Sources  []string `json:"sources"`
	SHA256   string   `json:"sha256"`
}

// sourcesHash is the generator's: the sha256 of the manifest
// "sha256(content)  path\n" of each file the patterns name (a directory and
// a name with *; files only, no dot files), sorted by path.
func sourcesHash(base string, patterns []string) (string, []string, error) {
	seen := map[string]bool{}
	var files []string
	for _, p := range patterns {
		dir, name := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		if !strings.Contains(name, "*") {
			if !seen[p] {
				seen[p] = true
				files = append(files, p)
			}
			continue
		}
		entries, err := os.ReadDir(filepath.Join(base, filepath.FromSlash(dir)))
		if err != nil {
			return "", nil, err
		}
		for _, e := range entries {
			ok, err := path.Match(name, e.Name())
			if err != nil {
				return "", nil, err
			}
			f := dir + "/" + e.Name()
			if ok && e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") && !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	var manifest bytes.Buffer
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(f)))
		if err != nil {
			return "", nil, err
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&manifest, "%s  %s\n", hex.EncodeToString(sum[:]), f)
	}
	sum := sha256.Sum256(manifest.Bytes())
	return hex.EncodeToString(sum[:]), files, nil
}

// TestScreenshotsCurrent: the pictures of the demo in the docs were taken
// from the page as it is. The PNG bytes differ between machines (fonts),
// so what is compared is the hash of the sources they show, recorded when
// they were taken; a change to the page, the inspector or the scripted
// conversation without make docs-screenshots fails here.
func TestScreenshotsCurrent(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(root, "docs", "screenshots.json"))
	if err != nil {
		t.Fatalf("%v: run make docs-screenshots", err)
	}
	var rec screenshotRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("docs/screenshots.json: %v", err)
	}
	// The record names what the pictures show; it cannot leave out the page.
	for _, want := range []string{"web/demo/*", "web/src/inspector/*.js", "web/test/demo/screenshots.mjs"} {
		found := false
		for _, s := range rec.Sources {
			found = found || s == want
		}
		if !found {
			t.Errorf("docs/screenshots.json's sources leave out %s", want)
		}
	}
	for _, want := range []string{"docs/demo.png", "docs/inspector.png"} {
		found := false
		for _, p := range rec.Pictures {
			found = found || p == want
		}
		if !found {
			t.Errorf("docs/screenshots.json does not list %s", want)
		}
	}
	for _, p := range rec.Pictures {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s is not a PNG", p)
		}
	}
	got, files, err := sourcesHash(root, rec.Sources)
	if err != nil {
		t.Fatal(err)
	}
	if got != rec.SHA256 {
		t.Errorf("the demo's sources changed since its pictures were taken (%d files, sha256 %s, recorded %s): run make docs-screenshots and commit docs/*.png and docs/screenshots.json",
			len(files), got[:12], rec.SHA256[:min(12, len(rec.SHA256))])
	}
}

// TestSourcesHashIsTheGenerators: the hash of a known tree, as
// web/test/demo/screenshots.mjs computes it (sha256sum's manifest, then its
// sha256).
func TestSourcesHashIsTheGenerators(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "a", "sub.js"), 0o755)) // a directory: left out
	must(os.WriteFile(filepath.Join(dir, "a", "y.js"), []byte("y\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a", "x.js"), []byte("x\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a", "z.css"), []byte("z\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a", ".hidden.js"), []byte("h\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644))
	got, files, err := sourcesHash(dir, []string{"a/*.js", "b.txt"})
	must(err)
	if strings.Join(files, ",") != "a/x.js,a/y.js,b.txt" {
		t.Errorf("files %v", files)
	}
	// printf 'x\n' | sha256sum … : the manifest sha256sum a/x.js a/y.js b.txt prints.
	manifest := ""
	for _, f := range []struct{ name, body string }{{"a/x.js", "x\n"}, {"a/y.js", "y\n"}, {"b.txt", "b\n"}} {
		s := sha256.Sum256([]byte(f.body))
		manifest += hex.EncodeToString(s[:]) + "  " + f.name + "\n"
	}
	want := sha256.Sum256([]byte(manifest))
	if got != hex.EncodeToString(want[:]) {
		t.Errorf("hash %s, want %s", got, hex.EncodeToString(want[:]))
	}
}
