package storage_test

import (
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/storagetest"
)

func TestMemory(t *testing.T) {
	storagetest.Run(t, func(*testing.T) storage.Engine { return storage.NewMemory() })
}
