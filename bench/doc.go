// Package bench compares the codec of Dynamo for Go with its peers,
// aws-sdk-go-v2's feature/dynamodb/attributevalue and guregu/dynamo v2, on
// the same items in the same run:
//
//	cd bench && go test -bench . -benchmem -count 3
//
// It is a separate module so that peer libraries never enter the main
// module's go.mod.
package bench
