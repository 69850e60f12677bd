// Package vector is the vector search engine of the local DynamoDB server:
// the state behind a table's vector indexes (CreateTable VectorIndexes,
// UpdateTable VectorIndexUpdates, DescribeTable VectorIndexes) and the exact
// nearest-neighbour search behind SearchVectors, with the service's
// validation rules and messages.
//
// It is a pure engine: it speaks types.AttributeValue and the expr AST and
// knows nothing of HTTP, JSON or table storage. The server wires it in a
// few calls:
//
//	// CreateTable (after the request-model checks, which take ModelConstraints):
//	defs, err := vector.CreateTableIndexes(in.VectorIndexes, vector.Table{...}, in.AttributeDefinitions)
//	for _, d := range defs { ix, _ := vector.New(d); table.vectors.Add(ix) }
//
//	// UpdateTable: one action; build a created index with Backfill.
//	create, del, err := vector.UpdateTableAction(in.VectorIndexUpdates, vector.Table{...}, in.AttributeDefinitions)
//
//	// DescribeTable: d.SDK() plus status, ItemCount (Len), IndexSizeBytes (SizeBytes), IndexArn.
//
//	// Every write, inside the write critical section:
//	err := table.vectors.Check(newItem)             // before storing (CheckUpdate for UpdateItem)
//	table.vectors.Upsert(key, newItem)              // after storing
//	table.vectors.Delete(key)                       // on delete
//	bytes := table.vectors.WriteBytes(old, newItem) // ConsumedCapacity.VectorIndexes under INDEXES
//
//	// SearchVectors:
//	cond, err := vector.ParseCondition(text)        // when SearchConditionExpression is present
//	err = vector.CheckRequest(req)                  // before the table lookup
//	q, err := ix.Prepare(req)                       // after the index lookup and readiness
//	q.IncludeVector = vector.NeedsVector(...)       // ProjectionExpression names the vector
//	res, err := ix.Search(q)                        // res.Hits best first, res.RequestBytes
//	err = req.CheckUnused(projectionNames...)
//
// An index keeps, per HASH value, the float32 vectors of its items in one
// contiguous slab, with primary keys, inline filter values (as small
// codes), precomputed norms and projected attributes in parallel columns,
// maintained on every write, so a search is one sequential pass over memory
// with a bounded heap of TopK rows and no allocation per candidate. The
// scoring kernels are AVX2+FMA assembly on amd64 CPUs that have both (fast
// enough that a search takes about the time of reading the slab) and
// portable Go elsewhere or under the purego build tag; both accumulate in
// float64 and differ only in the order of the additions. The search is exhaustive (recall 1.0, where the
// service is approximate) and equal scores come back in ascending key order
// (where the service's order is arbitrary): both are benign divergences.
//
// Errors meant for the client are [*Error] values carrying the DynamoDB
// error type and exact message. The reference for every rule is
// spec/vector-search.md in the project's shared notes; rules it marks as not
// captured from the service are marked so where they are implemented.
package vector
