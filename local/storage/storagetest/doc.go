// Package storagetest is the conformance suite every storage.Engine must
// pass: call Run from a test of the engine's package.
package storagetest
