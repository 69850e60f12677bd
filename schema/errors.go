package schema

// Error is a schema definition or key-building failure. It names the Go type
// of the schema and, where one is involved, the attribute name of the field:
//
//	dynamo: schema Order: field placed_at: sort-key field is unset
type Error struct {
	Type  string // Go type name of the schema, e.g. "Order"
	Field string // attribute name of the field concerned; "" when none
	Msg   string
}

func (e *Error) Error() string {
	if e.Type == "" {
		return "dynamo: schema: " + e.Msg
	}
	if e.Field == "" {
		return "dynamo: schema " + e.Type + ": " + e.Msg
	}
	return "dynamo: schema " + e.Type + ": field " + e.Field + ": " + e.Msg
}
