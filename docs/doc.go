// Package docs keeps the documentation (README.md and the pages of docs/)
// true to the code.
//
// The figures that change when the code does (the WebAssembly module's
// sizes, the benchmark tables) are written once, by `make docs-figures`
// (cmd/docs-figures, Update): from the built module's files and the
// benchmark results (bench/results*.json), into docs/figures.md, and into
// every region of a page marked
//
//	<!-- figure NAME -->…<!-- /figure -->
//
// The module's sizes are kept in docs/figures.json, so the pages can be
// checked without building the module. The tests check that every region
// holds what Update would write, that no page quotes a size of the module
// outside one, and that every Go code block of the pages compiles and runs
// (printing what its "// Output:" comment says).
package docs
