// Package memstore is the in-memory relay store: for tests, and for a
// single process that needs no durability (a demo server's run log). Its
// records live in maps under one mutex; readers wait on a channel that is
// closed at every change of the run.
package memstore
