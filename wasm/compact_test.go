package main

import (
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestApplyCompact: applyCompact returns the same change records as apply,
// a single message text append in the compact form and everything else as
// the same JSON, over every recorded stream.
func TestApplyCompact(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "streams", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	compact := 0
	for _, f := range files {
		name := filepath.Base(f)
		a, b := newHandle(t, `{"deterministicIds":true}`), newHandle(t, `{"deterministicIds":true}`)
		for i, l := range streamLines(t, name) {
			want, ok := result(apply(a, nil, []byte(l)))
			require.True(t, ok)
			n := applyCompact(b, nil, []byte(l))
			require.Positive(t, n)
			got := out[:n]
			if got[0] != compactAppend && got[0] != compactAppends {
				require.Equal(t, want, string(got), "%s line %d", name, i+1)
				continue
			}
			compact++
			require.JSONEq(t, want, expandCompact(t, got, ""), "%s line %d", name, i+1)
		}
		require.Equal(t, snap(t, a), snap(t, b), name)
	}
	require.Positive(t, compact)
}

func TestMessageField(t *testing.T) {
	for path, want := range map[string][3]uint32{
		"/messages/0/content":            {compactContent, 0, 1},
		"/messages/12/reasoning":         {compactReasoning, 12, 1},
		"/messages/999999999/content":    {compactContent, 999999999, 1},
		"/messages/1234567890/content":   {0, 0, 0}, // past uint32-safe digits
		"/messages/01/content":           {0, 0, 0},
		"/messages//content":             {0, 0, 0},
		"/messages/1/content/x":          {0, 0, 0},
		"/messages/1/name":               {0, 0, 0},
		"/toolCalls/1/argsText":          {0, 0, 0},
		"/messages/":                     {0, 0, 0},
		"/messages/-1/content":           {0, 0, 0},
		"/messages/1":                    {0, 0, 0},
		"/messages/1/contentx":           {0, 0, 0},
		"/messages/4294967296/content":   {0, 0, 0},
		"/messages/12/reasoningDuration": {0, 0, 0},
	} {
		f, i, ok := messageField(path)
		got := [3]uint32{uint32(f), i, 0}
		if ok {
			got[2] = 1
		}
		require.Equal(t, want, got, path)
	}
}

// expandCompact turns a compact output (applyCompact's or applyToken's;
// delta: the token's) into the JSON change record it stands for.
func expandCompact(t *testing.T, got []byte, delta string) string {
	t.Helper()
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value string `json:"value"`
	}
	var ops []op
	fields := map[byte]string{compactContent: "content", compactReasoning: "reasoning"}
	switch got[0] {
	case compactAppend, compactAppendDelta:
		require.NotEmpty(t, fields[got[1]])
		text := delta
		if got[0] == compactAppend {
			text = string(got[6:])
		} else {
			require.Len(t, got, 6)
		}
		ops = append(ops, op{"append", "/messages/" + itoa(binary.LittleEndian.Uint32(got[2:6])) + "/" + fields[got[1]], text})
	case compactAppends:
		n, p := int(got[1]), 2
		require.Positive(t, n)
		for range n {
			target, index := got[p], itoa(binary.LittleEndian.Uint32(got[p+1:p+5]))
			p += 5
			var path string
			switch target {
			case compactContent, compactReasoning:
				path = "/messages/" + index + "/" + fields[target]
			case compactArgsText:
				path = "/toolCalls/" + index + "/argsText"
			case compactArgs:
				l := int(binary.LittleEndian.Uint16(got[p:]))
				path = "/toolCalls/" + index + "/args" + string(got[p+2:p+2+l])
				p += 2 + l
			default:
				t.Fatalf("bad target %d", target)
			}
			l := binary.LittleEndian.Uint32(got[p:])
			p += 4
			text := delta
			if l != compactIsDelta {
				text = string(got[p : p+int(l)])
				p += int(l)
			}
			ops = append(ops, op{"append", path, text})
		}
		require.Equal(t, len(got), p, "trailing bytes")
	default:
		return string(got)
	}
	b, err := json.Marshal(map[string]any{"ops": ops})
	require.NoError(t, err)
	return string(b)
}

func TestAppendTarget(t *testing.T) {
	for path, want := range map[string]struct {
		target byte
		index  uint32
		ptr    string
	}{
		"/messages/3/content":          {compactContent, 3, ""},
		"/messages/3/reasoning":        {compactReasoning, 3, ""},
		"/toolCalls/0/argsText":        {compactArgsText, 0, ""},
		"/toolCalls/12/args/content":   {compactArgs, 12, "/content"},
		"/toolCalls/1/args/a~1b/0/c~0": {compactArgs, 1, "/a~1b/0/c~0"},
		"/toolCalls/1/args/":           {compactArgs, 1, "/"},
		"/toolCalls/1/args":            {},
		"/toolCalls/1/argsText/x":      {},
		"/toolCalls/1/argsx/y":         {},
		"/toolCalls/01/argsText":       {},
		"/toolCalls//argsText":         {},
		"/toolCalls/1/name":            {},
		"/state/toolCalls/1/argsText":  {},
		"/messages/1/name":             {},
	} {
		target, index, ptr, found := appendTarget(path)
		require.Equal(t, want.target != 0, found, path)
		require.Equal(t, want, struct {
			target byte
			index  uint32
			ptr    string
		}{target, index, ptr}, path)
	}
}

func itoa(n uint32) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
