// Package disk is a durable storage.Engine for the local DynamoDB server:
// tables, indexes, TTL and tag settings and items survive a restart.
//
//	e, err := disk.Open("/var/lib/dynamo")
//	srv, err := local.New(local.WithEngine(e))
//	...
//	srv.Close(); e.Close()
//
// Items live in memory (package storage's B-tree engine); a write is
// appended to a write-ahead log and fsynced before it returns, so no
// acknowledged write is lost to a crash or power cut. Concurrent writers
// share one fsync (group commit). A batch (Engine.Apply: an item with its
// index entries, a whole transaction) is one record, so a crash leaves all
// of it or none. Each log record is length-prefixed and
// CRC-32C checksummed; Open replays the log, and a torn or corrupt tail is
// truncated (a corrupt record is logged as an error and its bytes kept in
// wal.N.corrupt-<offset>), never a panic. When the log outgrows a threshold
// the engine starts a new log and, while writes go on into it, writes a
// snapshot of every item to a temporary file, fsyncs and renames it, and
// then removes the logs the snapshot covers.
//
// A data directory holds:
//
//	LOCK       flock'd while an Engine has the directory open
//	wal.N      log generation N: "dynwal01", then records (normally one;
//	           more if a compaction failed, all replayed in order)
//	snapshot   the last compaction: "dynsnp01", then records and an end
//	           marker naming the last log generation it covers
//
// The whole data set is held in memory (compaction briefly pauses writes to
// take pointers to every item); it suits development and test servers, not
// data sets larger than RAM.
package disk
