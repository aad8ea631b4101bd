package toolschema

import (
	"regexp"
	"testing"
)

// TestPatternAgainstRegexp: on the subset, the matcher agrees with package
// regexp (which jsonschema/v6 uses) wherever ECMA-262 and RE2 mean the
// same (no '.', no \s: they differ on a few line terminators and spaces).
func TestPatternAgainstRegexp(t *testing.T) {
	patterns := []string{
		`^\d{4}-\d{2}-\d{2}$`, `^([01]\d|2[0-3]):[0-5]\d$`, `^[^@]+@[^@]+$`, `^#[0-9a-fA-F]{6}$`,
		`^[CDG][A-Z0-9]{8,}$`, `a+b*c?`, `^(ab|cd)+$`, `^x{2,3}$`, `^(a|ab)(c|bcd)(d*)$`, `\bfoo\b`,
		`^[a-z0-9-]+(\.[a-z0-9-]+)+$`, `^(?:https?|ftp)://[^/]+`, `[\w-]+`, `^\D+$`, `^[^\d]*$`,
		`(a*)*b`, `^$`, `^a{0}$`, `^(a{2})*$`, `é+`, `^[é-ü]$`, `x+?y`, `^\x41$`, `^[\]\-]+$`,
	}
	inputs := []string{"", "a", "ab", "abc", "abcd", "aab", "xx", "xxx", "xxxx", "foo", "a foo b", "foobar",
		"2026-11-30", "2026-1-30", "09:30", "24:00", "ada@example.com", "#ff8800", "#FF88zz", "C01234ABCD",
		"example.com", "sub.example.co", "no_dots", "https://x.y/z", "ftp://h", "abd", "é", "ü", "ab-c_d",
		"aaaa", "aaab", "xxy", "A", "]-]", "12", "a1"}
	n := 0
	for _, src := range patterns {
		p := compilePattern(src)
		if p == nil {
			t.Fatalf("%s: not in the subset", src)
		}
		re := regexp.MustCompile(src)
		for _, s := range inputs {
			got, known := p.match(s)
			if !known || got != re.MatchString(s) {
				t.Errorf("%s on %q: %v (known %v), regexp %v", src, s, got, known, re.MatchString(s))
			}
			n++
		}
	}
	for _, src := range []string{`(?=a)`, `(?!a)`, `(?<=a)b`, `(a)\1`, `\p{L}`, `[`, `(`, `a**`, `x{3,2}`, `\k<n>`} {
		if compilePattern(src) != nil {
			t.Errorf("%s: compiled, but it is not in the subset", src)
		}
	}
	// \u escapes (ECMA-262; RE2 has none).
	if ok, _ := compilePattern(`^\u00e9\u0041$`).match("éA"); !ok {
		t.Error(`^\u00e9\u0041$ does not match "éA"`)
	}
	// A catastrophic pattern is not judged rather than hanging.
	if _, known := compilePattern(`^(a+)+$`).match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"); known {
		t.Error("a catastrophic match should run out of budget")
	}
	t.Logf("%d matches agree with regexp", n)
}
