package sse

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// agui is a realistic AG-UI stream, with LF line endings.
const agui = `: connected

retry: 3000

data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}

id: 1
data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}

id: 2
data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"héllo 😀"}

: keepalive

event: TEXT_MESSAGE_CONTENT
id: 3
data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1",
data: "delta":"日本語 — ünïcödé 🧪🇫🇷"}

data: {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/x","value":"a:b"}]}

id: 4
data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}

`

// splitStreams are the streams whose parse must not depend on chunking.
var splitStreams = []struct {
	name string
	in   string
	opt  Options
}{
	{name: "LF", in: agui},
	{name: "CRLF", in: strings.ReplaceAll(agui, "\n", "\r\n")},
	{name: "CR", in: strings.ReplaceAll(agui, "\n", "\r")},
	{name: "BOM CRLF", in: bom + strings.ReplaceAll(agui, "\n", "\r\n")},
	{name: "mixed endings", in: "data: a\r\ndata: b\rdata: c\n\r\ndata: d\n\r\n\r\rdata: 😀\r\n\n"},
	{name: "BOM-like prefix", in: "\xEF\xBBdata: x\n\n" + agui},
	{name: "invalid UTF-8", in: "data: a\xE2\x82\r\ndata: \xF0\x9F\x98\xF0\x9F\x98\x80\xFF\r\n\r\nid: \xED\xA0\x80\n\ndata: z\n\n"},
	{name: "unterminated tail", in: agui + "id: 99\ndata: {\"type\":\"RUN_ERROR\""},
	{name: "too large", opt: Options{MaxEventSize: 64}, in: agui},
	{name: "too large CR", opt: Options{MaxEventSize: 60}, in: strings.ReplaceAll(agui, "\n", "\r")},
	{name: "too large BOM", opt: Options{MaxEventSize: 24}, in: bom + "data: " + strings.Repeat("é", 20) + "\r\n\r\ndata: ok\r\n\r\n"},
}

// TestSplitInvariance feeds each stream split in many ways and checks the
// result is that of feeding it whole.
func TestSplitInvariance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range splitStreams {
		t.Run(s.name, func(t *testing.T) {
			in := []byte(s.in)
			want := feedChunks(s.opt, [][]byte{in})
			if len(want.Events) == 0 {
				t.Fatal("stream yields no events")
			}
			if s.opt.MaxEventSize != 0 && len(want.Errs) == 0 {
				t.Fatal("stream yields no errors")
			}
			if s.opt.MaxEventSize == 0 {
				events, lastID, retry := refParse(in)
				if ref := (result{Events: events, LastID: lastID, Retry: retry}); !reflect.DeepEqual(ref, want) {
					t.Fatalf("reference disagrees:\nref %+v\ngot %+v", ref, want)
				}
			}
			check := func(how string, chunks [][]byte) {
				t.Helper()
				if got := feedChunks(s.opt, chunks); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s:\ngot  %+v\nwant %+v", how, got, want)
				}
			}
			for i := 0; i <= len(in); i++ {
				check("split at "+strconv.Itoa(i), [][]byte{in[:i], in[i:]})
			}
			check("1-byte chunks", bytesChunks(in, 1))
			for range 200 {
				check("random split", randomSplit(r, in))
			}
		})
	}
}

// randomSplit cuts b at random points, sometimes producing empty chunks.
func randomSplit(r *rand.Rand, b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := r.IntN(min(len(b), 16) + 1)
		if r.IntN(8) == 0 {
			n = r.IntN(len(b) + 1)
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}
