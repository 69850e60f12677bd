package local_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const testArn = "arn:aws:dynamodb:us-east-1:000000000000:table/"

func tag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

func listTags(t *testing.T, c *dynamodb.Client, arn string) map[string]string {
	t.Helper()
	out, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("ListTagsOfResource: %v", err)
	}
	got := map[string]string{}
	for _, tg := range out.Tags {
		got[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	return got
}

func TestTags(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "app")
	arn := testArn + "app"
	if got := listTags(t, c, arn); len(got) != 0 {
		t.Fatalf("new table has tags %v", got)
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{tag("env", "dev"), tag("team", "")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{tag("env", "prod")}}); err != nil {
		t.Fatal(err)
	}
	if got := listTags(t, c, arn); len(got) != 2 || got["env"] != "prod" || got["team"] != "" {
		t.Fatalf("tags = %v", got)
	}
	if _, err := c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"env", "absent"}}); err != nil {
		t.Fatal(err)
	}
	if got := listTags(t, c, arn); len(got) != 1 || got["team"] != "" {
		t.Fatalf("after untag: %v", got)
	}

	// CreateTable's tags count toward the limit.
	var fifty []types.Tag
	for i := range 50 {
		fifty = append(fifty, tag(fmt.Sprint("k", i), "v"))
	}
	srv.CreateTable(t, &dynamodb.CreateTableInput{TableName: aws.String("full"), Tags: fifty,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          types.BillingModePayPerRequest})
	if got := listTags(t, c, testArn+"full"); len(got) != 50 {
		t.Fatalf("CreateTable tags: %d", len(got))
	}
	_, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(testArn + "full"), Tags: []types.Tag{tag("one", "more")}})
	wantErr(t, err, "ValidationException", "Number of Tags exceed the current limit for the provided ResourceArn")
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(testArn + "full"), Tags: []types.Tag{tag("k1", "replaced")}}); err != nil {
		t.Fatalf("replacing a value is within the limit: %v", err)
	}
}

func TestTagValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "app")
	arn := testArn + "app"
	long := strings.Repeat("k", 129)
	cases := []struct {
		name, arn string
		tags      []types.Tag
		code, msg string
	}{
		{"malformed arn", "abcd", []types.Tag{tag("a", "b")}, "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input abcd"},
		{"key of 129 characters", arn, []types.Tag{tag(strings.Repeat("é", 129), "b")}, "ValidationException", "The Tag Key provided is invalid, Key: " + strings.Repeat("é", 129)},
		{"key with a disallowed character", arn, []types.Tag{tag("a*b", "b")}, "ValidationException", "The Tag Key provided is invalid, Key: a*b"},
		{"value with a disallowed character", arn, []types.Tag{tag("a", "b#c")}, "ValidationException", "The Tag Value provided is invalid, Value: b#c"},
		{"not a table arn", "a:b:c:d:e:f/g", []types.Tag{tag("a", "b")}, "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input a:b:c:d:e:f/g"},
		{"no tags", arn, []types.Tag{}, "ValidationException", "Atleast one Tag needs to be provided as Input."},
		{"empty key", arn, []types.Tag{tag("", "b")}, "ValidationException", "The Tag Key provided is invalid, Key: "},
		{"long key", arn, []types.Tag{tag(long, "b")}, "ValidationException", "The Tag Key provided is invalid, Key: " + long},
		{"long value", arn, []types.Tag{tag("a", strings.Repeat("v", 257))}, "ValidationException", "The Tag Value provided is invalid, Value: " + strings.Repeat("v", 257)},
		{"aws prefix", arn, []types.Tag{tag("ok", "1"), tag("aws:zzz", "b")}, "ValidationException", "Tag Key cannot be prefixed with aws:, Key: aws:zzz"},
		{"duplicate", arn, []types.Tag{tag("dup", "1"), tag("dup", "2")}, "ValidationException", "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"},
		{"unknown table", testArn + "nope", []types.Tag{tag("a", "b")}, "ResourceNotFoundException", "Requested resource not found: ResourcArn: " + testArn + "nope not found"},
		{"other account", "arn:aws:dynamodb:us-east-1:123456789012:table/app", []types.Tag{tag("a", "b")}, "AccessDeniedException", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(tc.arn), Tags: tc.tags})
			wantErr(t, err, tc.code, tc.msg)
		})
	}
	if got := listTags(t, c, arn); len(got) != 0 {
		t.Fatalf("a rejected request applied tags: %v", got)
	}
	_, err := c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{}})
	wantErr(t, err, "ValidationException", "Atleast one Tag Key needs to be provided as Input.")
	_, err = c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(testArn + "nope")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: ResourcArn: "+testArn+"nope not found")
}
