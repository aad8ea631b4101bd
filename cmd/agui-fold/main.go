// Command agui-fold reduces a recorded AG-UI event stream and prints the
// final agent state as JSON.
//
// Usage:
//
//	agui-fold [-messages] [-strict] FILE|-
//
// The input holds one JSON event per line. With -messages it prints the
// conversation in the official AG-UI Message[] shape (what runInput sends)
// instead of the state. Diagnostics go to standard error, one per line,
// prefixed by the line number of the event. The exit status is 0 unless the
// input cannot be read.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agui-reducer/agui/reducer"
)

func main() {
	messages := flag.Bool("messages", false, "print runInput().messages (AG-UI Message[]) instead of the state")
	strict := flag.Bool("strict", false, "also report the orderings the official verifier rejects")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: agui-fold [-messages] [-strict] FILE|-")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	in, err := open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-fold:", err)
		os.Exit(1)
	}
	defer in.Close()
	r := reducer.New(reducer.Options{Strict: *strict})
	if err := fold(r, in, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "agui-fold:", err)
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
	os.Stdout.Write(pretty.Bytes())
}

func open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	return os.Open(name)
}

// fold applies every non-blank line of in as one event and writes the
// diagnostics to diag.
func fold(r *reducer.Reducer, in io.Reader, diag io.Writer) error {
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
		r.ApplyInto(&c, b)
		for _, d := range c.Diagnostics {
			fmt.Fprintf(diag, "line %d: %s %s: %s\n", line, d.Level, d.Code, d.Message)
		}
	}
	return sc.Err()
}
