package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscapeControls(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain id-1 é 中 🙂", "plain id-1 é 中 🙂"},
		{"a\nb", `a\nb`},
		{"a\r\nb\tc", `a\r\nb\tc`},
		{"\x1b[2K\x1b[1A", `\x1b[2K\x1b[1A`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u0085 \u009b31m", `c1 \u0085 \u009b31m`},
		{"sep\u2028par\u2029", `sep\u2028par\u2029`},
		{"bidi \u202eevil\u202c \u2066x\u2069", `bidi \u202eevil\u202c \u2066x\u2069`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"", ""},
	} {
		got := escapeControls(c.in)
		assert.Equal(t, c.want, got, "%q", c.in)
		for _, r := range got {
			assert.False(t, unsafeRune(r), "%q left %U", c.in, r)
		}
	}
}

func TestEscapeJSONText(t *testing.T) {
	in := "{\n  \"id\": \"m\u009b\u202e\\u001b\u007f\u2028é中\"\n}\n"
	assert.Equal(t, "{\n  \"id\": \"m\\u009b\\u202e\\u001b\\u007f\\u2028é中\"\n}\n", string(escapeJSONText([]byte(in))))
	plain := []byte("{\"a\": \"b\"}\n")
	assert.Equal(t, &plain[0], &escapeJSONText(plain)[0], "nothing to escape: no copy")
}

// TestDiagnosticsCannotForgeLines: an id or a message carrying ESC
// sequences, newlines and C1 controls prints as one escaped diagnostic line.
func TestDiagnosticsCannotForgeLines(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"x\u001b[2K\rline 99: error forged\nline 100: \u0085\u2028","delta":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"t\u009b2K\u001b]0;title\u0007","delta":"a"}`,
		"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\x1b[1A",
	}, "\n") + "\n"
	for _, c := range []struct {
		name string
		fold func(*dialect.Pipeline, *bytes.Buffer) error
	}{
		{"jsonl", func(r *dialect.Pipeline, diag *bytes.Buffer) error { return fold(r, strings.NewReader(in), diag) }},
		{"sse", func(r *dialect.Pipeline, diag *bytes.Buffer) error {
			var sse strings.Builder
			for _, l := range strings.Split(strings.TrimSpace(in), "\n") {
				sse.WriteString("data: " + l + "\n\n")
			}
			return foldSSE(r, strings.NewReader(sse.String()), diag)
		}},
	} {
		var diag bytes.Buffer
		require.NoError(t, c.fold(dialect.NewPipeline(reducer.New(reducer.Options{}), dialect.New(dialect.Options{})), &diag), c.name)
		out := diag.String()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		require.Len(t, lines, 3, "%s: one line per diagnostic:\n%s", c.name, out)
		for _, l := range lines {
			assert.Regexp(t, `^(line|event) \d+: (warning|error) `, l, c.name)
			for _, r := range l {
				assert.False(t, unsafeRune(r), "%s: %q has %U", c.name, l, r)
			}
		}
		assert.Contains(t, out, `x\x1b[2K\rline 99: error forged\nline 100: \u0085\u2028`, c.name)
		assert.Contains(t, out, `t\u009b2K\x1b]0;title\a`, c.name)
	}
}
