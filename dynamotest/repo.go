package dynamotest

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/schema"
)

// NewRepo starts a server, as NewServer does, creates the tables the schemas
// describe (schemas sharing a table are merged into one single-table
// definition, as schema.CreateTableInput merges them) and returns a repo on
// it. Both are cleaned up with the test.
//
//	repo, srv := dynamotest.NewRepo(t, Orders, Users)
func NewRepo(t testing.TB, schemas ...schema.Described) (*dynamo.Repo, *Server) {
	t.Helper()
	s := NewServer(t)
	s.CreateTables(t, schemas...)
	return s.Repo(t), s
}

// Repo returns a repo on the server: static credentials (dummy ones, or the
// key of WithAccessKey), region us-east-1 and millisecond backoff so that tests of retry paths stay fast.
// opts are applied after those and may override them.
func (s *Server) Repo(t testing.TB, opts ...dynamo.Option) *dynamo.Repo {
	t.Helper()
	base := []dynamo.Option{
		dynamo.WithEndpoint(s.URL),
		dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials(s.key.ID, s.key.Secret, s.key.SessionToken),
		dynamo.WithBackoff(time.Millisecond, 5*time.Millisecond),
	}
	repo, err := dynamo.New(aws.Config{}, append(base, opts...)...)
	if err != nil {
		t.Fatalf("dynamotest: %v", err)
	}
	return repo
}

// CreateTables creates one table per distinct table name among the schemas,
// merging the schemas that share it.
func (s *Server) CreateTables(t testing.TB, schemas ...schema.Described) {
	t.Helper()
	var order []string
	byTable := map[string][]schema.Described{}
	for _, sc := range schemas {
		name := sc.Describe().Table
		if _, ok := byTable[name]; !ok {
			order = append(order, name)
		}
		byTable[name] = append(byTable[name], sc)
	}
	for _, name := range order {
		in, err := schema.CreateTableInput(byTable[name]...)
		if err != nil {
			t.Fatalf("dynamotest: table %s: %v", name, err)
		}
		s.CreateTable(t, in)
	}
}
