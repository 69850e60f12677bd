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
// share one fsync (group commit). Each log record is length-prefixed and
// CRC-32C checksummed; Open replays the log, and a torn or corrupt tail is
// truncated (a corrupt record is logged as an error and its bytes kept in
// wal.corrupt-<offset>), never a panic. When the log outgrows a threshold
// the engine writes a snapshot of every item to a temporary file, fsyncs and
// renames it, and then empties the log.
//
// A data directory holds:
//
//	LOCK       flock'd while an Engine has the directory open
//	wal        the log: "dynwal01", then records
//	snapshot   the last compaction: "dynsnp01", then records and an end marker
//
// The whole data set is held in memory, and compaction pauses writes (not
// reads) while it writes the snapshot; it suits development and test
// servers, not data sets larger than RAM.
package disk
