// Command agui-fold reduces a recorded AG-UI event stream and prints the
// final agent state as JSON.
//
// Usage:
//
//	agui-fold [-messages] [-strict] [-dialect NAME] FILE|-
//
// The input holds one JSON event per line, or, for a FILE whose name ends in
// .sse, a text/event-stream body (the SSE event name then counts for the
// dialects that use it). With -messages it prints the conversation in the
// official AG-UI Message[] shape (what runInput sends) instead of the state.
// Each event goes through a translator of package dialect before the
// reducer: -dialect pins the event dialect (auto, agui, sse-contract,
// tanstack, streaming; see docs/dialects.md); by default it is detected
// per event.
// Diagnostics go to standard error, one per line, prefixed by the line
// number of the event (the event number for SSE input), with control
// characters of the input escaped (\x1b, \n) so that ids and messages cannot
// forge or erase lines; in the printed JSON they are \u escapes. The exit
// status is 0 unless the input cannot be read or the options are wrong.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agui-reducer/agui/dialect"
	"github.com/agui-reducer/agui/reducer"
)

func main() {
	messages := flag.Bool("messages", false, "print runInput().messages (AG-UI Message[]) instead of the state")
	strict := flag.Bool("strict", false, "also report the orderings the official verifier rejects")
	name := flag.String("dialect", dialect.Auto, "event dialect: "+strings.Join(dialect.Names(), ", "))
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: agui-fold [-messages] [-strict] [-dialect NAME] FILE|-")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || !slices.Contains(dialect.Names(), *name) {
		flag.Usage()
		os.Exit(2)
	}
	in, err := open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-fold:", escapeControls(err.Error()))
		os.Exit(1)
	}
	defer in.Close()
	r := reducer.New(reducer.Options{Strict: *strict})
	p := dialect.NewPipeline(r, dialect.New(dialect.Options{Dialect: *name}))
	foldInput := fold
	if strings.HasSuffix(flag.Arg(0), ".sse") {
		foldInput = foldSSE
	}
	if err := foldInput(p, in, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "agui-fold:", escapeControls(err.Error()))
		os.Exit(1)
	}
	var out []byte
	if *messages {
		out = r.AppendMessages(nil)
	} else {
		out = r.Snapshot()
	}
	var pretty bytes.Buffer
	if err := jsonIndent(&pretty, out); err != nil {
		pretty.Reset()
		pretty.Write(out)
	}
	pretty.WriteByte('\n')
	os.Stdout.Write(escapeJSONText(pretty.Bytes()))
}

func open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	return os.Open(name)
}

// fold applies every non-blank line of in as one event and writes the
// diagnostics to diag.
func fold(p *dialect.Pipeline, in io.Reader, diag io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var c reducer.Change
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		p.Apply(&c, "", b)
		for _, d := range c.Diagnostics {
			fmt.Fprintf(diag, "line %d: %s %s: %s\n", line, d.Level, escapeControls(d.Code), escapeControls(d.Message))
		}
	}
	return sc.Err()
}

// foldSSE parses in as a text/event-stream body and applies every event,
// writing the diagnostics to diag. An event left unterminated at the end of
// the input is discarded, as the event-stream rules require.
func foldSSE(p *dialect.Pipeline, in io.Reader, diag io.Writer) error {
	n := 0
	each := func(c *reducer.Change) {
		n++
		for _, d := range c.Diagnostics {
			fmt.Fprintf(diag, "event %d: %s %s: %s\n", n, d.Level, escapeControls(d.Code), escapeControls(d.Message))
		}
	}
	buf := make([]byte, 64<<10)
	for {
		k, err := in.Read(buf)
		p.Feed(buf[:k], each)
		if err == io.EOF {
			p.Close()
			return nil
		}
		if err != nil {
			return err
		}
	}
}
