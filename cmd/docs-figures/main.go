// Command docs-figures writes the documentation's changing figures from one
// source: the sizes of the built module (web/dist/agui.wasm, .gz, .br, kept
// in docs/figures.json) and the benchmark results (bench/results*.json), into
// docs/figures.md and the marked regions of README.md and docs/*.md
// (package docs). Run from the repository root: make docs-figures.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agui-reducer/agui/docs"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	changed, err := docs.Update(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docs-figures:", err)
		os.Exit(1)
	}
	for _, f := range changed {
		fmt.Println("updated", f)
	}
}
