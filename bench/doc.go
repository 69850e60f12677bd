// Package bench compares the codec of Dynamo for Go with its peers,
// aws-sdk-go-v2's feature/dynamodb/attributevalue and guregu/dynamo v2, on
// the same items in the same run (TestSameItems checks that the three
// encoders produce the same attributes):
//
//	cd bench && go test -bench . -benchmem -count 3
//
// Next to ns/op each benchmark reports cpu-ns/op, the process's CPU time
// per operation, which moves far less than wall time on a shared machine.
// With GOMAXPROCS=1 it leaves out the garbage collector's idle-time
// workers, which otherwise burn the spare core:
//
//	GOMAXPROCS=1 go test -run XXX -bench 'Order|Nested' -benchmem -count 3
//
// It is a separate module so that peer libraries never enter the main
// module's go.mod.
package bench
