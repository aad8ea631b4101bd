// Command panics is the module of lines_test.go: it grows its stack,
// collects garbage and recovers a panic (what needs the tables
// stripLines keeps), prints "recovered", then panics for good (what
// reads the tables it clears). No fmt: the build stays quick.
package main

import "runtime"

//go:noinline
func deep(n int, keep []*[64]byte) int {
	if n == 0 {
		runtime.GC()
		return len(keep)
	}
	return deep(n-1, append(keep, new([64]byte)))
}

func recovered() (msg string) {
	defer func() { msg = recover().(error).Error() }()
	var s []int
	return string(rune(s[deep(2000, nil)]))
}

func main() {
	println("recovered:", recovered())
	panic("for good")
}
