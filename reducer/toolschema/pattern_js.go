//go:build js

package toolschema

// The WebAssembly build leaves pattern and patternProperties unchecked:
// the matcher of regex.go would cost the module about 5.6 KB brotli, past
// its budget. A schema that uses them lists them in Schema.Unchecked.

type pattern struct{}

// hasPatterns says that this build matches no patterns: the code that
// would use them is left out.
const hasPatterns = false

func compilePattern(string) *pattern { return nil }

func (*pattern) match(string) (matched, known bool) { return false, false }
