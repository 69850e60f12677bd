// Package disk is a durable storage.Engine for the local DynamoDB server:
// tables, indexes, TTL and tag settings and items survive a restart.
//
//	e, err := disk.Open("/var/lib/dynamo")
//	srv, err := local.New(local.WithEngine(e))
//	...
//	srv.Close(); e.Close()
//
// Items live in memory (package storage's B-tree engine), in the encoding
// the log and the snapshot use too (storage.Value), which records carry with
// the item's size: a restart reads each file through one buffer, checking
// and decoding its records there, and keeps each item where it lies in a
// read-only mapping of the file, without decoding or copying it (the
// record's checksum vouches for its bytes) and without touching the
// mapping: the tree takes each key's first bytes and the item's size from
// the buffer (storage.ColdPutter), and an item's page is first read when
// the item is. The mapping's pages are the kernel's page cache, and the
// mapping lasts as long as the process, so a file a compaction deletes
// keeps its disk space until then. Where files cannot be mapped, they are
// read into blocks of 256 KB instead; a block stays allocated while one of
// its items is stored. A snapshot holds each collection's items in key
// order, and the tree is built from them bottom-up, leaves first
// (storage.SortedLoader). The logs after it are read first, into a
// buffer whose writes are then sorted by key, and the last write of each
// key is merged into the snapshot's items as the snapshot is read, so that
// a stored key is compared where it lies in the read buffer and the tree
// is still built once, bottom-up (where the snapshot's trailer cannot be
// read first, the snapshot is loaded first and the sorted writes applied
// to its tree). A log's writes of a table come in its keys' hash order;
// applied one by one, each read a random page of the snapshot's mapping.
// Logs larger than twice what compactions let them grow to (compactions
// have been failing) are applied to the loaded snapshot a chunk of writes
// at a time, so that the memory Open takes does not grow with them.
//
// A write is appended to a write-ahead log and fsynced before it returns
// (ApplyDeferred returns before, and WaitDurable after: see
// storage.Deferred), so no acknowledged write is lost to a crash or power
// cut. Concurrent writers share one fsync (group commit). On Linux the
// log is preallocated: zeros
// are written ahead of the records and fsynced (at least 64 KiB, as much as
// the log holds, at most 1 MiB at a time), so an append overwrites blocks
// already on disk and its fdatasync writes only the data, not the inode
// too. Zeros after the last record read as the end of the log, and Close
// cuts them off. A batch (Engine.Apply: an item with its
// index entries, a whole transaction) is one record, so a crash leaves all
// of it or none. Each log record is length-prefixed and CRC-32C
// checksummed. When the log outgrows a threshold the engine starts a new
// log and, while writes go on into it, writes a snapshot of every item to a
// temporary file, fsyncs and renames it, and then removes the logs the
// snapshot covers.
//
// # Recovery fails loud
//
// Open replays the log. A crash can only tear the end of the newest log:
// an incomplete last record, or a last record whose checksum fails with
// nothing valid after it. That tail was never acknowledged; it is cut off
// with a warning (a complete but bad record is kept in wal.N.torn-OFFSET).
// Anything else would drop acknowledged writes, so Open fails with an error
// wrapping ErrDamaged that names the file and the offset: a bad record with
// a valid record after it, damage in an older log, a damaged snapshot or
// MANIFEST, a file the MANIFEST lists that is missing. For a damaged log,
// WithTruncateDamagedLog (dynamo local --truncate-damaged-log) keeps a copy
// of the whole log in wal.N.damaged-OFFSET and cuts it at the damage.
//
// A failed compaction (a full disk) keeps the logs and the engine writing,
// and is retried once the log has grown by another threshold. A failed
// write or fsync of the log breaks the engine: every later call fails, and
// Health (the server's GET /) says why, until the directory is reopened.
//
// A data directory, created owner-only (0700, files 0600), holds:
//
//	LOCK       flock'd while an Engine has the directory open
//	MANIFEST   the files that must be there: the snapshot (if any) and the
//	           newest log, with a checksum; Open initialises only a new or
//	           empty directory
//	wal.N      log generation N: "dynwal02", then records, then zeros
//	           while open (normally one log; more if a compaction failed,
//	           all replayed in order)
//	snapshot   the last compaction: "dynsnp02", then records and an end
//	           marker naming the last log generation it covers
//
// The last digit of the header is the record format. Open also reads
// format 1 files (whose items a restart walks to check them and find their
// size), writes new records to a new log rather than after format 1 ones,
// and refuses a format it does not know.
//
// The whole data set is held in memory (compaction briefly pauses writes to
// take pointers to every item); it suits development and test servers, not
// data sets larger than RAM.
package disk
