package main

import (
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Ids of bounded length. The server writes ids taken from the request into
// every frame it logs (the thread and run ids into RUN_STARTED and
// RUN_FINISHED, the run id as the suffix of every message, tool call and
// interrupt id), so an id's length multiplies into the runs stored. An id of
// the request longer than maxIDBytes is therefore never written as it came:
// the server writes a short id derived from it instead, by a hash keyed
// with a secret of the process, so that the same long id maps to the same
// short one for the life of the server (a conversation keeps its thread)
// and a client cannot aim two long ids at one short id.

// maxIDBytes is the longest id of a request the server writes as it came.
const maxIDBytes = 128

// idDeriver derives short ids from long ones.
type idDeriver struct{ key [32]byte }

func newIDDeriver() *idDeriver {
	d := &idDeriver{}
	crand.Read(d.key[:]) // never fails (crypto/rand, Go 1.24+)
	return d
}

// bound returns id itself when it is at most maxIDBytes long, or else
// kind, "-h" and 24 hex digits of the id's keyed hash (at most
// len(kind)+26 bytes).
func (d *idDeriver) bound(kind, id string) string {
	if len(id) <= maxIDBytes {
		return id
	}
	m := hmac.New(sha256.New, d.key[:])
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(id))
	return kind + "-h" + hex.EncodeToString(m.Sum(nil)[:12])
}

// quoteShort quotes a value of the request for an error message: at most
// 64 bytes of it, and how long it was when that is longer.
func quoteShort(s string) string {
	const keep = 64
	if len(s) <= keep {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:keep]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
