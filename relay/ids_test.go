package relay

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// encodeURIComponent is JavaScript's, applied as the web package's
// threadURL applies it (web/src/thread/thread.js): to the id made well
// formed (a lone surrogate becomes U+FFFD, as JSON decoding makes it here).
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// TestThreadIDsRoundTrip: every threadId a client can send either loads
// back through the URL the web package builds for it, or is refused when
// the run is made (400 bad_thread_id): "." and "..", which a URL
// normalises away however they are encoded, and ids too long for a
// request line.
func TestThreadIDsRoundTrip(t *testing.T) {
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"x\",\"runId\":\"r\"}\n\n"+
			"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"x\",\"runId\":\"r\"}\n\n")
	}))
	_, rs := newRelay(t, up.URL, nil, nil)
	ids := []string{"t1", ".", "..", "...", "./a", "a/..", "../x", "/", "a/b", "//", "%", "%2F", "%2e%2E", "a%20b", "?x=1#y",
		"a b", "+", "&=;", "\\", "日本語 🙂", "\u202e\u0000\t\n", "\"quoted\"", strings.Repeat("x", 10<<10),
		strings.Repeat("日", 10<<10/3), strings.Repeat("x", 40<<10), strings.Repeat("é", MaxThreadIDPath/6), strings.Repeat("y", MaxThreadIDPath+1), strings.Repeat("é", MaxThreadIDPath/6+1)}
	for _, id := range ids {
		name := id
		if len(name) > 20 {
			name = fmt.Sprintf("%d bytes", len(id))
		}
		t.Run(name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"threadId": id, "runId": "r", "messages": userMessages("hello")})
			resp := post(t, rs.URL, string(body), nil)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if id == "." || id == ".." || len(encodeURIComponent(id)) > MaxThreadIDPath {
				if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"code":"bad_thread_id"`) {
					t.Fatalf("the run was not refused: %d %s", resp.StatusCode, b)
				}
				return
			}
			if resp.StatusCode != 200 || !strings.Contains(string(b), "RUN_FINISHED") {
				t.Fatalf("run: %d %s", resp.StatusCode, b)
			}
			key := resp.Header.Get(threadKeyHeader)
			want := strings.ToValidUTF8(id, "\uFFFD")
			if !utf8.ValidString(id) {
				t.Fatal("test ids are valid UTF-8")
			}
			for _, path := range []string{"/threads/" + encodeURIComponent(id), "/threads/" + encodeURIComponent(id) + "?view=reducer"} {
				resp := get(t, rs.URL, path, map[string]string{threadKeyHeader: key})
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("GET %.80s: %d %.300s", path, resp.StatusCode, b)
				}
				if !strings.Contains(path, "view=") {
					var v threadView
					if json.Unmarshal(b, &v) != nil || v.ThreadID != want || len(v.Messages) != 1 {
						t.Fatalf("GET %.80s: %.300s", path, b)
					}
				}
			}
			req, _ := http.NewRequest("DELETE", rs.URL+"/threads/"+encodeURIComponent(id), nil)
			req.Header.Set(threadKeyHeader, key)
			dr, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			dr.Body.Close()
			if dr.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE: %d", dr.StatusCode)
			}
		})
	}
}
