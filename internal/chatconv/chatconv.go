package chatconv

import (
	"bytes"
	"os"
	"strconv"
)

// The ids of the recorded turn, each with its closing quote, so that one
// that is a prefix of another is not renamed inside it.
var turnIDs = [][]byte{[]byte(`msg_RshYtgszWQ8DFqT6BjWqHLPu"`), []byte(`rs_YbBZSrAuXP820kp7TFkYU3Ui"`), []byte(`tool_rh4KS02ioMMnfwNT7Q3JNEcO"`),
	[]byte(`call_uGhbmQQhQGdNgGBtEe2manQH"`), []byte(`be8aca44-14f9-407c-b3d1-882611fd30f9"`), []byte(`berlin_1"`)}

// Read returns the events of a conversation of n turns of the recorded
// turn at path (the JSON Lines of wasm/testdata/chat-turn.jsonl), one
// event's JSON text per element.
func Read(path string, n int) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	turn := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var events [][]byte
	for k := range n {
		suffix := []byte("_" + strconv.Itoa(k) + `"`)
		for _, ev := range turn {
			if k > 0 && bytes.HasPrefix(ev, []byte(`{"type":"STATE_SNAPSHOT"`)) {
				continue
			}
			for _, id := range turnIDs {
				ev = bytes.ReplaceAll(ev, id, append(id[:len(id)-1:len(id)-1], suffix...))
			}
			events = append(events, ev)
		}
	}
	return events, nil
}
