// Package storetest is the behaviour every relay store shares, as a test
// suite: a backend's tests call Run with a constructor of empty stores.
package storetest
