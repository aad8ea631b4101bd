package main

import (
	"io"
	"net/http"
	"slices"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer/sse"
)

// -upstream-dialect: the upstream agent speaks another dialect (package
// dialect), and the proxy re-emits its answer to the page as canonical
// AG-UI SSE, one data line per canonical event. The page's reducer then
// needs no dialect of its own.

// translateResponse returns the proxy's ModifyResponse for an upstream
// that speaks dialect name: a successful answer's body is translated as it
// streams; an error answer passes as it came.
func translateResponse(name string, logf func(string, ...any)) func(*http.Response) error {
	return func(resp *http.Response) error {
		if err := dropUpstreamCORS(resp); err != nil {
			return err
		}
		if resp.StatusCode/100 != 2 {
			return nil
		}
		resp.Body = &translatedBody{
			in:   resp.Body,
			p:    sse.NewParser(sse.Options{}),
			t:    dialect.New(dialect.Options{Dialect: name}),
			logf: logf,
		}
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
		resp.Header.Set("Content-Type", "text/event-stream")
		return nil
	}
}

// translatedBody reads an upstream text/event-stream body and yields the
// canonical AG-UI SSE body it stands for.
type translatedBody struct {
	in     io.ReadCloser
	p      *sse.Parser
	t      *dialect.Translator
	logf   func(string, ...any)
	buf    [32 << 10]byte
	out    []byte // translated, not yet read
	lastID string // the upstream id last written
	eof    bool
}

func (b *translatedBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.eof {
			return 0, io.EOF
		}
		n, err := b.in.Read(b.buf[:])
		b.p.FeedEach(b.buf[:n], b.frame, func(err error) { b.logf("upstream: %v", err) })
		if err == io.EOF {
			b.p.Close(nil)
			b.eof = true
		} else if err != nil {
			return 0, err
		}
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// frame translates one upstream SSE event.
func (b *translatedBody) frame(e sse.Event) {
	last := -1 // where the last canonical event of this frame starts in out
	diags := b.t.TranslateTo(e.Type, []byte(e.Data), func(ev []byte) {
		last = len(b.out)
		b.out = append(b.out, "data: "...)
		b.out = append(b.out, ev...)
		b.out = append(b.out, "\n\n"...)
	}, func(amendment []byte) {
		// What canonical AG-UI has no event for goes on as the
		// translator's own frame, which the page's translator takes
		// back (the page must not pin the dialect to agui).
		last = len(b.out)
		b.out = dialect.AmendFrame(b.out, amendment)
	})
	// The upstream's id (docs/resume.md) goes on the last canonical event
	// of its frame: a client that resumes from it has everything the frame
	// stood for; the events before keep the previous id in force.
	if e.ID != b.lastID && last >= 0 {
		b.out = slices.Insert(b.out, last, []byte("id: "+e.ID+"\n")...)
		b.lastID = e.ID
	}
	for _, d := range diags {
		b.logf("upstream event: %s %s", d.Code, d.Message)
	}
}

func (b *translatedBody) Close() error { return b.in.Close() }
