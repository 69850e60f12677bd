package disk_test

import (
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// What one Engine writes, the next Engine on the same directory reads back.
func Example() {
	dir, _ := os.MkdirTemp("", "dynamo-disk")
	defer os.RemoveAll(dir)

	e, _ := disk.Open(dir)
	c, _ := e.Collection("t/users")
	alice, _ := storage.Encode(storage.Item{"name": &types.AttributeValueMemberS{Value: "Alice"}})
	c.Put([]byte("alice"), alice)
	e.Close()

	e, _ = disk.Open(dir)
	defer e.Close()
	c, _ = e.Collection("t/users")
	v, ok, _ := c.Get([]byte("alice"))
	it, _ := v.Item()
	fmt.Println(ok, it["name"].(*types.AttributeValueMemberS).Value)
	// Output: true Alice
}
