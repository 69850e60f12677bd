package local

import (
	"fmt"
	"github.com/dynamogo/dynamo/internal/limits"
	"net/http"
	"strings"
)

// Error is an error answered to the client: DynamoDB's error type (the part of
// __type after '#'), its message and the HTTP status. Handlers and fault hooks
// return it; anything else becomes an InternalServerError.
type Error struct {
	Type    string // e.g. "ValidationException", "ResourceNotFoundException"
	Message string
	Status  int // 0 means 400

	// item is the DynamoDB JSON sent as "Item" with a
	// ConditionalCheckFailedException when the request asked for
	// ReturnValuesOnConditionCheckFailure ALL_OLD.
	item []byte
	// members are extra members of the error body, already encoded with a
	// leading comma (TransactionCanceledException's CancellationReasons).
	members []byte
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

// status is the HTTP status DynamoDB answers the error with.
func (e *Error) status() int {
	if e.Status != 0 {
		return e.Status
	}
	return http.StatusBadRequest
}

// namespace is the prefix of __type. DynamoDB answers protocol-level errors
// from its service framework ("coral") and service errors from its own model.
func (e *Error) namespace() string {
	switch e.Type {
	case "ValidationException":
		return "com.amazon.coral.validate#"
	case "SerializationException", "UnknownOperationException", "MissingAuthenticationTokenException",
		"UnrecognizedClientException", "InvalidSignatureException", "AccessDeniedException",
		"IncompleteSignatureException", "ThrottlingException", "ServiceUnavailableException", "RequestEntityTooLargeException":
		return "com.amazon.coral.service#"
	}
	return "com.amazonaws.dynamodb.v20120810#"
}

// Error constructors for the kinds handlers use; messages are DynamoDB's.

func validation(msg string) *Error { return &Error{Type: "ValidationException", Message: msg} }

func validationf(format string, args ...any) *Error {
	return &Error{Type: "ValidationException", Message: fmt.Sprintf(format, args...)}
}

// invalidParam is the "One or more parameter values were invalid: ..." family.
func invalidParam(format string, args ...any) *Error {
	return validationf("One or more parameter values were invalid: "+format, args...)
}

func notFound(msg string) *Error {
	if msg == "" {
		msg = "Requested resource not found"
	}
	return &Error{Type: "ResourceNotFoundException", Message: msg}
}

func tableNotFound(name string) *Error {
	return notFound("Requested resource not found: Table: " + name + " not found")
}

func resourceInUse(msg string) *Error {
	return &Error{Type: "ResourceInUseException", Message: msg}
}

func serialization(msg string) *Error {
	return &Error{Type: "SerializationException", Message: msg}
}

func conditionalFailed() *Error {
	return &Error{Type: "ConditionalCheckFailedException", Message: "The conditional request failed"}
}

func internalError() *Error {
	return &Error{Type: "InternalServerError", Message: "Internal server error", Status: http.StatusInternalServerError}
}

// constraints collects the "Value X at 'path' failed to satisfy constraint"
// errors of the request framework, which DynamoDB reports all at once:
// "1 validation error detected: ..." or "N validation errors detected: a; b".
type constraints struct{ msgs []string }

func (c *constraints) add(value any, path, constraint string) {
	var v string
	switch x := value.(type) {
	case nil:
		v = "null"
	case string:
		v = "'" + x + "'"
	case *string:
		if x == nil {
			v = "null"
		} else {
			v = "'" + *x + "'"
		}
	default:
		v = "'" + fmt.Sprint(x) + "'"
	}
	c.msgs = append(c.msgs, "Value "+v+" at '"+path+"' failed to satisfy constraint: "+constraint)
}

// addAt adds a violation the way the service's newer validation reports
// collections: the path alone, without the value ("Value at
// 'RequestItems.t.member.Keys' failed to satisfy constraint: ...").
func (c *constraints) addAt(path, constraint string) {
	c.msgs = append(c.msgs, "Value at '"+path+"' failed to satisfy constraint: "+constraint)
}

func (c *constraints) err() *Error {
	switch n := len(c.msgs); n {
	case 0:
		return nil
	case 1:
		return validation("1 validation error detected: " + c.msgs[0])
	default:
		return validation(fmt.Sprintf("%d validation errors detected: ", n) + strings.Join(c.msgs, "; "))
	}
}

const (
	ruleNotNull = "Member must not be null"
	ruleTable   = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
)

// name checks a table, index or backup name (3–255 of [a-zA-Z0-9_.-]). The
// empty name fails the pattern too, as the service reports it (DescribeTable
// with TableName "", observed 2026-10-09: aws-controllers-k8s API quirks,
// DDB-TABLE-457).
func (c *constraints) name(v *string, path string, required bool) {
	c.nameLen(v, path, required, limits.MinNameLen)
}

// itemTableName checks the TableName of a single-item, query or transaction
// action, whose model allows 1 character (it also takes a table's ARN:
// API_GetItem.html): an empty name is reported against that minimum alone,
// a shorter name than a table can have is just a table that does not exist
// (PutItem with TableName "" and "a"×256, observed 2026:
// paritysuite/dynamodb-conformance, tests/tier3/error-messages/putItem.test.ts).
func (c *constraints) itemTableName(v *string, path string) {
	if v != nil && *v == "" {
		c.add("", path, "Member must have length greater than or equal to 1")
		return
	}
	c.nameLen(v, path, true, 1)
}

func (c *constraints) nameLen(v *string, path string, required bool, min int) {
	if v == nil {
		if required {
			c.add(nil, path, ruleNotNull)
		}
		return
	}
	s := *v
	valid := s != ""
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.' || ch == '-') {
			valid = false
			break
		}
	}
	// The service lists a short table or index name's length before its
	// pattern (DescribeTable and CreateTable's GSI IndexName "", ibid.).
	if len(s) < min {
		c.add(s, path, fmt.Sprintf("Member must have length greater than or equal to %d", min))
	}
	if !valid {
		c.add(s, path, ruleTable)
	}
	if len(s) > limits.MaxNameLen {
		c.add(s, path, "Member must have length less than or equal to 255")
	}
}

// controlTableName checks that a control-plane table action names its
// table at all; how long the name is and what it holds are the request's
// constraints, reported with the others (CreateTable with TableName "" and
// "x!", UpdateTable with "ab", DescribeTable with "": paritysuite's
// tests/tier3/validation-ordering/createTable.test.ts and aws-controllers-k8s
// API quirks DDB-TABLE-448, DDB-TABLE-457, all observed in 2026).
func controlTableName(v *string) *Error {
	if v == nil {
		return validation(msgTableNameRequired)
	}
	return nil
}

func (c *constraints) enum(v *string, path string, allowed ...string) {
	if v == nil {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	c.add(*v, path, "Member must satisfy enum value set: ["+strings.Join(allowed, ", ")+"]")
}

// The service's messages, one entry each, with where the wording comes from.
const (
	// ConditionalOperator with fewer than two conditions to join (observed
	// from the service; API_Scan.html, ConditionalOperator).
	msgCondOpAlone = "ConditionalOperator cannot be used without Filter or Expected"
	msgCondOpOne   = "ConditionalOperator can only be used when Filter or Expected has two or more elements"

	// Query with a ConditionalOperator outside its enum, before any other
	// member is checked, bare and in these words, "ALL" included (observed
	// 2026-10-09 in two regions: paritysuite/dynamodb-conformance,
	// tests/tier3/validation-ordering/query.test.ts).
	msgQueryCondOp = "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]"

	// UpdateTable asking for nothing: the members that would ask for
	// something, less one the request already holds (observed 2026-10-09 in
	// two regions, with and without MultiRegionConsistency:
	// aws-controllers-k8s API quirks, DDB-TABLE-442); and an empty list of
	// index updates beside another change (observed; after the "One or more
	// parameter values were invalid: " prefix).
	msgUpdateNothing   = "At least one of %s or TableClass is required"
	msgEmptyGSIUpdates = "List of GlobalSecondaryIndexUpdates is empty"

	// BatchWriteItem without RequestItems, or with none (observed; the
	// service is moving this action to the generic constraint message, and
	// answers either: paritysuite/dynamodb-conformance,
	// tests/tier3/error-messages/batchWriteItem.test.ts).
	msgBatchWriteRequired = "The requestItems parameter is required for BatchWriteItem"
	// A BatchWriteItem table with no requests: the map entry is echoed
	// whole, as Java prints a map (observed, ibid.).
	msgBatchWriteEmptyList = "Value '{%s=[]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"

	// BatchGetItem's and BatchWriteItem's RequestItems with a table name
	// that breaks its constraints (the constraint as the service words it,
	// 2026-10-09: paritysuite/dynamodb-conformance,
	// tests/tier3/validation-ordering/batchOperations.test.ts).
	msgBatchTableNames = "Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]"

	// The control-plane table actions (CreateTable, DescribeTable,
	// UpdateTable, DeleteTable) check that TableName is present apart from
	// the constraint framework (observed: aws/aws-sdk-java#977; the same
	// sentence from RestoreTableToPointInTime in aws-controllers-k8s API
	// quirks, DDB-TABLE-442).
	msgTableNameRequired = "The parameter 'TableName' is required but was not present in the request"
	// A restore's TargetTableName out of length keeps the older sentence
	// (RestoreTableFromBackup with TargetTableName "", observed 2026-10-09:
	// aws-controllers-k8s API quirks, DDB-TABLE-457).
	msgRestoreTargetLength = "TableName must be at least 3 characters long and at most 255 characters long"
	// A BackupArn that is no backup's ARN (DescribeBackup with BackupArn "",
	// ibid.; DeleteBackup and RestoreTableFromBackup too, DDB-TABLE-442).
	msgInvalidBackupArn = "Invalid Backup ARN"

	// AttributeUpdates ADD or DELETE of a value whose type does not match
	// the attribute's (dynalite's tests of the service; the update
	// expression's wording is "An operand in the update expression has an
	// incorrect data type"; API_UpdateItem.html lists both).
	msgLegacyTypeMismatch = "Type mismatch for attribute to update"

	// UpdateTable's StreamSpecification: a view type is required to enable
	// and refused to disable (after the "One or more parameter values were
	// invalid: " prefix), and a stream cannot be enabled twice (nor its view
	// type changed in place) or disabled when there is none. Observed
	// against the service on 2026-10-09 (aws-controllers-k8s API quirks,
	// DDB-TABLE-050); CreateTable words the first two its own way.
	msgStreamEnableNeedsView = "If stream is being enabled then UpdateViewType is required"
	msgStreamDisableWithView = "If stream is being disabled, then UpdateViewType must not be specified"
	msgStreamAlreadyEnabled  = "Table already has an enabled stream: TableName: %s"
	msgStreamNoneToDisable   = "Table has no stream to disable: TableName: %s"

	// CreateTable's StreamSpecification, after the "One or more parameter
	// values were invalid: " prefix (observed 2026-10-08: aws-controllers-k8s
	// API quirks, DDB-TABLE-035; the disabled case also in dynoxide 0.11.2's
	// changelog).
	msgCreateStreamNeedsView        = "Table is being created with a stream enabled, UpdateViewType is required"
	msgCreateStreamDisabledWithView = "Table is being created with a stream disabled, UpdateViewType should not be specified"

	// A name given twice in an index Projection's NonKeyAttributes, in
	// CreateTable and an UpdateTable GSI Create, after the prefix (observed
	// 2026-10-08: aws-controllers-k8s API quirks, projection rules and
	// DDB-TABLE-442).
	msgDuplicateNonKey = "Duplicate element in NonKeyAttributes: %s"

	// An attribute defined twice in CreateTable's AttributeDefinitions
	// (observed: scylladb/scylladb#13870; aws-controllers-k8s API quirks,
	// DDB-TABLE-442).
	msgDuplicateDefinition = "Attribute Name is duplicated: %s"

	// A multi-attribute GSI key schema naming an attribute twice, with a
	// HASH element after a RANGE one, or with too many of either (the last
	// two after the prefix; aws-controllers-k8s API quirks, DDB-TABLE-442).
	msgKeySchemaSameName   = "The KeySchema contains multiple key attributes with the same name"
	msgKeySchemaHashFirst  = "All HASH key attributes must precede RANGE key attributes in the KeySchema"
	msgKeySchemaTooManyKey = "The KeySchema exceeds the maximum allowed number of %s key attributes"

	// UpdateTable's GlobalSecondaryIndexUpdates: an entry with no action or
	// more than one, one index named by two entries, a GSI Create without
	// AttributeDefinitions or of an index that exists, and a GSI Update on an
	// on-demand table that sets throughput or nothing it may change
	// (observed 2026-10-08/09: aws-controllers-k8s API quirks, DDB-TABLE-160,
	// DDB-TABLE-162, DDB-TABLE-442 and DDB-TABLE-457; the existing index also
	// in dynoxide's captures). All but msgIndexExists after the "One or more
	// parameter values were invalid: " prefix.
	msgGSIUpdateNoAction           = "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null"
	msgGSIUpdateTwoActions         = "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object"
	msgGSIUpdateSameIndex          = "Only one global secondary index update per index is allowed simultaneously. Index: %s"
	msgGSINoDefinitions            = "AttributeDefinitions is not specified for index: %s"
	msgIndexExists                 = "Attempting to create an index which already exists"
	msgGSIUpdateOnDemandThroughput = "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: %s when BillingMode is PAY_PER_REQUEST"
	msgGSIUpdateOnDemandOnly       = "The only Updates for index: %s when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput"

	// CreateTable on a PROVISIONED table with a GSI that has no throughput,
	// after the prefix (observed: aws-controllers-k8s API quirks,
	// DDB-TABLE-128; Alternator's test_gsi_throughput_required_in_provisioned_mode).
	// UpdateTable words it "must be specified".
	msgCreateGSINoThroughput = "ProvisionedThroughput is not specified for index: %s"

	// TransactWriteItems whose items add up to more than 4 MB
	// (API_TransactWriteItems.html names the limit). No answer of the
	// service's has been published that we could find, so the wording is
	// ours.
	msgTxTooLarge = "Transaction size has exceeded the maximum allowed size of 4 MB"
)
