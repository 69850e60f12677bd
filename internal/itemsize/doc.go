// Package itemsize is the one owner of DynamoDB's item size rule, which the
// server uses for the 400 KB item limit, capacity units and table sizes, and
// vector search uses for its capacity and size figures.
//
// The rule is the developer guide's "DynamoDB item sizes and formats"
// (CapacityUnitCalculations.html): an item is the sum of its attribute names'
// lengths and its values' sizes. Strings and binaries count their length in
// bytes; a number one byte per two significant digits, rounded up, plus one;
// BOOL and NULL one byte; a set the sum of its elements; a list or map three
// bytes, plus one per element, plus the elements (and, for a map, the
// element names).
package itemsize
