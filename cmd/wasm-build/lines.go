package main

// Line tables. A Go binary carries, in its pclntab, tables that map every
// program counter of every function to a source file and line: the runtime
// reads them only to print file:line in a stack trace (panics, throws,
// runtime.Stack, runtime.Caller). Inlining multiplies their entries, and in
// agui.wasm they weigh about 73 KB of the 734 KB brotli module, with no
// linker flag to leave them out (-s and -w drop the name section and DWARF,
// not these). stripLines clears them after the link: a stack trace then
// names each function and its offset ("reducer.(*Reducer).reduce() ?:0
// +0x3a") without the file and line, and nothing else changes. The tables
// the runtime needs to run (stack frame sizes, pointer maps, unsafe points,
// the inlining tree that recover() walks) are kept as they are.
//
// The pclntab layout is the Go runtime's (runtime/symtab.go, the format of
// Go 1.20 and later): stripLines checks the header's magic number and that
// the function table agrees with the module's code section, and returns an
// error, leaving the module to be used as built, on anything else.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// lineStats says what stripLines removed.
type lineStats struct {
	funcs  int // functions whose file and line tables were cleared
	tables int // distinct tables zeroed
	bytes  int // bytes of the tables zeroed
}

const (
	wasmSectionCode = 10
	wasmSectionData = 11

	// pclntabMagic opens the runtime's pcHeader (Go 1.20 and later),
	// followed by two zero bytes, the instruction size quantum (1 for
	// wasm) and the pointer size (8).
	pclntabMagic = "\xf1\xff\xff\xff\x00\x00\x01\x08"

	// Offsets in the runtime's _func (runtime/runtime2.go).
	funcEntryOff  = 0
	funcPCFile    = 20
	funcPCLine    = 24
	funcNPCData   = 28
	funcNFuncData = 43
	funcPCData    = 44
	funcPCSP      = 16
)

type section struct {
	id      byte
	payload []byte
}

type segment struct {
	offset int
	data   []byte
}

// stripLines returns a copy of module with the file and line tables of its
// pclntab cleared. The zeros stay in the data segments, which keep their
// places and lengths: left out, they would make the raw module 4% smaller
// and the compressed ones larger (the segment headers compress worse than
// the zeros).
func stripLines(module []byte) ([]byte, lineStats, error) {
	var st lineStats
	module = bytes.Clone(module)
	sections, err := parseSections(module)
	if err != nil {
		return nil, st, err
	}
	var code, data *section
	for i := range sections {
		switch sections[i].id {
		case wasmSectionCode:
			code = &sections[i]
		case wasmSectionData:
			data = &sections[i]
		}
	}
	if code == nil || data == nil {
		return nil, st, errors.New("no code or data section")
	}
	nfuncs, _, err := uvarint(code.payload, 0)
	if err != nil {
		return nil, st, fmt.Errorf("code section: %w", err)
	}
	segs, err := parseSegments(data.payload)
	if err != nil {
		return nil, st, fmt.Errorf("data section: %w", err)
	}
	end := 0
	for _, s := range segs {
		end = max(end, s.offset+len(s.data))
	}
	mem := make([]byte, end)
	for _, s := range segs {
		copy(mem[s.offset:], s.data)
	}
	if st, err = clearLineTables(mem, int(nfuncs)); err != nil {
		return nil, st, err
	}
	for _, s := range segs {
		copy(s.data, mem[s.offset:]) // s.data is module's bytes
	}
	return module, st, nil
}

// clearLineTables finds the pclntab in the memory image mem, checks it
// against nfuncs (the functions of the code section), and zeroes the file
// and line tables of every function, and their offsets.
func clearLineTables(mem []byte, nfuncs int) (lineStats, error) {
	var st lineStats
	at := bytes.Index(mem, []byte(pclntabMagic))
	if at < 0 {
		return st, errors.New("no Go 1.20+ pclntab header (a Go toolchain with another layout?)")
	}
	hdr := mem[at:]
	if len(hdr) < 8+8*8 {
		return st, errors.New("pclntab header cut short")
	}
	word := func(i int) int { return int(binary.LittleEndian.Uint64(hdr[8+8*i:])) }
	nfunc, pctabOff, functabOff := word(0), word(6), word(7)
	if nfunc != nfuncs {
		return st, fmt.Errorf("pclntab lists %d functions, the code section has %d", nfunc, nfuncs)
	}
	if pctabOff <= 0 || functabOff <= pctabOff || at+functabOff+8*(nfunc+1) > len(mem) {
		return st, errors.New("pclntab offsets out of range")
	}
	pctab := hdr[pctabOff:functabOff]
	ftab := hdr[functabOff:]
	le := binary.LittleEndian

	// Every table offset of every function: those to clear, and those
	// to keep (the linker shares identical tables between fields).
	var clear []int // positions in ftab of offsets to zero
	keep := map[uint32]bool{}
	prevEntry := -1
	for i := 0; i < nfunc; i++ {
		entry, fo := int(le.Uint32(ftab[8*i:])), int(le.Uint32(ftab[8*i+4:]))
		if entry <= prevEntry || fo+funcPCData > len(ftab) || int(le.Uint32(ftab[fo+funcEntryOff:])) != entry {
			return st, fmt.Errorf("pclntab function %d does not have the expected layout", i)
		}
		prevEntry = entry
		npcdata, nfuncdata := int(le.Uint32(ftab[fo+funcNPCData:])), int(ftab[fo+funcNFuncData])
		if npcdata > 16 || nfuncdata > 16 || fo+funcPCData+4*npcdata > len(ftab) {
			return st, fmt.Errorf("pclntab function %d does not have the expected layout", i)
		}
		kept := []int{fo + funcPCSP}
		for d := 0; d < npcdata; d++ {
			kept = append(kept, fo+funcPCData+4*d)
		}
		for _, p := range kept {
			keep[le.Uint32(ftab[p:])] = true
		}
		for _, p := range []int{fo + funcPCFile, fo + funcPCLine} {
			if off := int(le.Uint32(ftab[p:])); off >= len(pctab) {
				return st, fmt.Errorf("pclntab function %d: table offset out of range", i)
			}
			clear = append(clear, p)
		}
		st.funcs++
	}
	zeroed := map[uint32]bool{}
	for _, p := range clear {
		off := le.Uint32(ftab[p:])
		if off != 0 && !keep[off] && !zeroed[off] {
			n, err := tableLen(pctab, int(off))
			if err != nil {
				return st, err
			}
			for j := range n {
				pctab[int(off)+j] = 0
			}
			zeroed[off] = true
			st.tables++
			st.bytes += n
		}
	}
	// The runtime reads an offset of 0 as "no table": the file is "?" and
	// the line 0.
	for _, p := range clear {
		le.PutUint32(ftab[p:], 0)
	}
	return st, nil
}

// tableLen returns the length of the pc-value table at off: pairs of
// (value delta, pc delta) varints ending with a zero value delta that is
// not the first.
func tableLen(t []byte, off int) (int, error) {
	i := off
	for first := true; ; first = false {
		v, n, err := uvarint(t, i)
		if err != nil {
			return 0, fmt.Errorf("pc-value table at %d: %w", off, err)
		}
		i = n
		if v == 0 && !first {
			return i - off, nil
		}
		if _, i, err = uvarint(t, i); err != nil {
			return 0, fmt.Errorf("pc-value table at %d: %w", off, err)
		}
	}
}

func parseSections(module []byte) ([]section, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	var out []section
	for i := 8; i < len(module); {
		id := module[i]
		size, j, err := uvarint(module, i+1)
		if err != nil || j+int(size) > len(module) {
			return nil, errors.New("section cut short")
		}
		if id == 12 {
			return nil, errors.New("a data count section (not written by the Go linker)")
		}
		out = append(out, section{id, module[j : j+int(size)]})
		i = j + int(size)
	}
	return out, nil
}

// parseSegments reads active data segments of memory 0 with an i32.const
// offset, the only kind the Go linker writes.
func parseSegments(p []byte) ([]segment, error) {
	n, i, err := uvarint(p, 0)
	if err != nil {
		return nil, err
	}
	segs := make([]segment, 0, n)
	for range n {
		if i+2 > len(p) || p[i] != 0 || p[i+1] != 0x41 {
			return nil, errors.New("a data segment that is not active with an i32.const offset")
		}
		off, j, err := varint(p, i+2)
		if err != nil || j >= len(p) || p[j] != 0x0b || off < 0 {
			return nil, errors.New("bad data segment offset")
		}
		size, k, err := uvarint(p, j+1)
		if err != nil || k+int(size) > len(p) {
			return nil, errors.New("data segment cut short")
		}
		segs = append(segs, segment{int(off), p[k : k+int(size)]})
		i = k + int(size)
	}
	return segs, nil
}

var errVarint = errors.New("bad LEB128 number")

// uvarint reads an unsigned LEB128 number at i and returns it and the
// index after it.
func uvarint(b []byte, i int) (uint64, int, error) {
	if i >= len(b) {
		return 0, i, errVarint
	}
	v, n := binary.Uvarint(b[i:])
	if n <= 0 {
		return 0, i, errVarint
	}
	return v, i + n, nil
}

// varint reads a signed LEB128 number (WebAssembly's, not Go's zigzag).
func varint(b []byte, i int) (int64, int, error) {
	var v int64
	var shift uint
	for ; i < len(b) && shift < 64; shift += 7 {
		c := b[i]
		i++
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, i, nil
		}
	}
	return 0, i, errVarint
}
