// Package storage is the storage layer of the local DynamoDB server: an
// Engine of named, ordered collections of items, and the order-preserving key
// encodings that make a collection's byte order DynamoDB's key order (S by
// UTF-8 bytes, N numerically, B bytewise).
//
// Engine.Apply writes a batch of Ops over several collections all or
// nothing: the server writes an item with its index entries, and a whole
// transaction, as one batch, so a durable engine's crash never leaves an
// index out of step with its table or half a transaction.
//
// A durable engine may also implement Deferred: ApplyDeferred applies a
// batch and orders it in the log without waiting for the fsync, and
// WaitDurable waits for it, so that writers that no longer hold a table's
// lock share one fsync while every answer still waits until what it wrote
// or read is durable.
//
// An engine that can lose the ability to write while open (a durable one
// on a full or failing disk) implements HealthChecker; the server answers
// GET / with 503 while Health reports an error.
//
// Collections hold items as Values: an immutable, compact binary encoding
// with the item's size computed once, when it is written; a collection
// keeps the sum of its items' sizes as it keeps their count
// (Collection.Size), so a table's size is known without reading an item,
// even after a durable engine's restart. A reader decodes
// only what it needs (Value.Item), and a read that answers with whole items
// writes their DynamoDB JSON straight from the encoding (Value.AppendJSON),
// so a Scan allocates no per-item maps and leaves nothing behind.
//
// NewMemory is the in-memory engine (one B-tree per collection, each item
// one allocation holding its key and its encoding, or, restored by a
// durable engine through SharedPutter, a place in the block or mapping that
// engine read its files into; through ColdPutter the engine gives the key's
// bytes from a buffer of its own as well, so that a mapping is not read
// while loading; a collection restored from items in key order through
// SortedLoader is built bottom-up, its nodes from a few slabs). Both
// engines' collections are Finders: a lookup returns where it found its key
// (a Slot), and a write of that key passing it (Finder.PutAt, Op.At)
// replaces the value there, so a read-modify-write searches the tree once;
// a write in between makes the slot stale, and the write searches again.
// Every engine must pass the conformance suite in package storagetest.
package storage
