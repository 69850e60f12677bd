// Package vector is the vector search engine of the local DynamoDB server:
// the state behind a table's vector indexes (CreateTable VectorIndexes,
// UpdateTable VectorIndexUpdates) and the exact nearest-neighbour search
// behind SearchVectors, with the service's validation rules and messages.
//
// It is a pure engine: it speaks types.AttributeValue and the expr AST, and
// knows nothing of HTTP, JSON or tables. The server wires it in a few calls:
//
//	// CreateTable: one Definition per VectorIndex, then the cross-index rules.
//	def, err := vector.FromSDK(vi, in.AttributeDefinitions, "pk", "sk")
//	err = vector.ValidateIndexes(defs, gsiAndLsiNames...)
//	ix, err := vector.New(def)
//	table.vectors.Add(ix)
//
//	// Every write, inside the write critical section:
//	if err := table.vectors.Check(newItem); err != nil { return err } // before storing
//	table.vectors.Upsert(key, newItem)                                  // after storing
//	table.vectors.Delete(key)                                           // on delete
//
//	// SearchVectors:
//	err = vector.CheckRequest(req)         // before the table lookup
//	q, err := ix.Prepare(req)              // after the index lookup
//	res, err := ix.Search(q)               // res.Hits best first, with Score
//
// An index keeps, per HASH value, the float32 vectors of its items in one
// contiguous slab with the primary keys, inline filter values and projected
// attributes in parallel columns, so a search is one sequential pass over
// memory. The search is exhaustive (recall 1.0, where the service is
// approximate); equal scores come back in ascending key order, where the
// service's order is arbitrary. Both are benign divergences.
//
// The reference for every rule and message is spec/vector-search.md in the
// project's shared notes; rules marked there as not captured from the
// service are noted where they are implemented.
package vector
