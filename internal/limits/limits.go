package limits

// Items and keys.
const (
	MaxItemBytes         = 400 * 1024 // an item: attribute names plus values
	MaxPartitionKeyBytes = 2048       // a partition key value
	MaxSortKeyBytes      = 1024       // a sort key value
	MaxDepth             = 32         // nesting of lists and maps
	MaxAttrNameBytes     = 1<<16 - 1  // an attribute name or map key, however it arrives
)

// Requests.
const (
	MaxBatchWrite            = 25       // BatchWriteItem: put and delete requests
	MaxBatchGet              = 100      // BatchGetItem: keys over all tables
	MaxBatchGetResponseBytes = 16 << 20 // BatchGetItem: bytes returned
	MaxBatchStatements       = 25       // BatchExecuteStatement: statements
	MaxTransactItems         = 100      // TransactWriteItems, TransactGetItems, ExecuteTransaction
	MaxTransactBytes         = 4 << 20  // TransactWriteItems: aggregate item size
	MaxClientTokenLen        = 36       // TransactWriteItems ClientRequestToken
	MaxPageBytes             = 1 << 20  // Query, Scan: data read per page
	MaxListTables            = 100      // ListTables Limit
	MaxExpressionBytes       = 4096     // one expression's text
	MaxPlaceholderLen        = 255      // an ExpressionAttributeNames or ExpressionAttributeValues key, prefix included
	MinTopK, MaxTopK         = 1, 100   // SearchVectors TopK
)

// Tables and indexes.
const (
	MinNameLen           = 3   // table and index names
	MaxNameLen           = 255 // table and index names; attribute names in key schemas
	MaxGSIs              = 20  // global secondary indexes per table
	MaxLSIs              = 5   // local secondary indexes per table
	MaxGSIKeyAttrs       = 4   // attributes of each side of a multi-attribute GSI key
	MaxProjectedPerIndex = 20  // NonKeyAttributes of one index's projection
	MaxProjectedPerTable = 100 // projected non-key attributes over all indexes of a table
	MaxVectorIndexes     = 5   // vector indexes per table
	MaxDimensions        = 4096
	MaxInlineFilters     = 18 // INLINE_FILTER attributes per vector index
	MaxTags              = 50 // tags per resource
	MaxTagKeyLen         = 128
	MaxTagValueLen       = 256
)
