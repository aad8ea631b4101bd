package toolschema

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agui-reducer/agui/reducer/jsontree"
)

// The differential oracle: github.com/santhosh-tekuri/jsonschema/v6, a
// complete draft 2020-12 validator, used only by tests (as
// evanphx/json-patch is the oracle for patches).

// oracle compiles schema (JSON text) with jsonschema/v6.
func oracle(t testing.TB, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatalf("oracle: %v", err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		return nil
	}
	return s
}

// oracleValid validates the JSON text data with s.
func oracleValid(t testing.TB, s *jsonschema.Schema, data string) bool {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(data))
	if err != nil {
		t.Fatalf("oracle data %s: %v", data, err)
	}
	return s.Validate(v) == nil
}

func mustParse(t testing.TB, text string) jsontree.Value {
	t.Helper()
	v, err := jsontree.Parse([]byte(text), jsontree.ParseOptions{JSText: true})
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return v
}

// suiteModule ships the JSON Schema Test Suite in its module zip
// (testdata/JSON-Schema-Test-Suite); .ci/run downloads it with
// go mod download. It is not a dependency of this module.
const suiteModule = "github.com/kaptinlin/jsonschema@v0.9.6"

// suiteDirIfPresent returns the suite's draft 2020-12 tests in the
// module cache, or "".
func suiteDirIfPresent() string {
	cache := modCache()
	if cache == "" {
		return ""
	}
	dir := filepath.Join(cache, filepath.FromSlash(suiteModule), "testdata", "JSON-Schema-Test-Suite", "tests", "draft2020-12")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// modCache returns the module cache directory: go env's answer, or under
// js/wasm, which starts no processes, its default.
func modCache() string {
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if d := os.Getenv("GOPATH"); d != "" {
		return filepath.Join(filepath.SplitList(d)[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}

// suiteDir finds the suite's draft 2020-12 tests in the module cache; with
// CI set, its absence fails the test.
func suiteDir(t *testing.T) string {
	dir := suiteDirIfPresent()
	if dir == "" {
		msg := "the JSON Schema Test Suite is not in the module cache: go mod download " + suiteModule
		// Under js/wasm the cache is a guess (no go env): the Go run
		// is the one CI requires.
		if os.Getenv("CI") != "" && runtime.GOOS != "js" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// suiteFiles are the suite's files for the implemented keywords.
var suiteFiles = []string{
	"additionalProperties", "allOf", "anyOf", "boolean_schema", "const", "defs", "enum",
	"exclusiveMaximum", "exclusiveMinimum", "format", "items", "maxItems", "maxLength",
	"maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum",
	"multipleOf", "not", "oneOf", "pattern", "patternProperties", "prefixItems",
	"properties", "ref", "required", "type", "uniqueItems",
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// TestSuite: on every case of the suite's files for the implemented
// keywords, Validate agrees with the oracle; where the schema uses a
// keyword that is not checked, Validate never says invalid where the
// oracle says valid.
func TestSuite(t *testing.T) {
	dir := suiteDir(t)
	agreed, partial, skipped := 0, 0, 0
	for _, name := range suiteFiles {
		raw, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatal(err)
		}
		for _, g := range groups {
			schemaText := string(g.Schema)
			o := oracle(t, schemaText)
			if o == nil {
				skipped += len(g.Tests)
				continue
			}
			s, err := Compile(mustParse(t, schemaText))
			if err != nil {
				t.Errorf("%s / %s: compile: %v", name, g.Description, err)
				continue
			}
			for _, tc := range g.Tests {
				data := string(bytes.TrimSpace(tc.Data))
				want := oracleValid(t, o, data)
				if want != tc.Valid {
					t.Fatalf("%s / %s / %s: the oracle says %v, the suite %v", name, g.Description, tc.Description, want, tc.Valid)
				}
				got := s.Valid(mustParse(t, data))
				errs := s.Validate(mustParse(t, data), 0)
				if got != (len(errs) == 0) {
					t.Errorf("%s / %s / %s: Valid %v but Validate %v", name, g.Description, tc.Description, got, errs)
				}
				if len(s.Unchecked()) > 0 {
					partial++
					if want && !got {
						t.Errorf("%s / %s / %s: false invalid with unchecked %v: %v", name, g.Description, tc.Description, s.Unchecked(), errs)
					}
					continue
				}
				agreed++
				if got != want {
					t.Errorf("%s / %s / %s: schema %s data %s: got valid=%v, oracle %v (%v)", name, g.Description, tc.Description, schemaText, data, got, want, errs)
				}
			}
		}
	}
	t.Logf("%d cases agree with the oracle; %d with unchecked keywords (never a false invalid); %d the oracle cannot compile", agreed, partial, skipped)
}
