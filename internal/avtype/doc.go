// Package avtype names an attribute value's DynamoDB type and says when two
// values are equal: the one switch over the SDK's AttributeValue members that
// the codec, schema and the server use for their type checks and error
// messages, and the one definition of DynamoDB's = that the server's
// expression engine and vector index share.
package avtype
