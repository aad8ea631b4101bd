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
			if got[0] != compactAppend {
				require.Equal(t, want, string(got), "%s line %d", name, i+1)
				continue
			}
			compact++
			field := map[byte]string{compactContent: "content", compactReasoning: "reasoning"}[got[1]]
			require.NotEmpty(t, field)
			rec := decode(t, want)
			require.Len(t, rec.Ops, 1, want)
			require.Equal(t, "append", rec.Ops[0].Op)
			require.Equal(t, "/messages/"+itoa(binary.LittleEndian.Uint32(got[2:6]))+"/"+field, rec.Ops[0].Path)
			require.JSONEq(t, string(rec.Ops[0].Value), quote(string(got[6:])))
			require.Empty(t, rec.Events)
			require.Empty(t, rec.Diagnostics)
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

func itoa(n uint32) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
