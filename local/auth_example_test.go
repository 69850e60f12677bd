package local_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// With WithAccessKeys the server verifies signatures: a client signing with
// the key is served, one with a wrong secret or an unknown key is refused
// with DynamoDB's errors.
func ExampleWithAccessKeys() {
	srv, err := local.New(local.WithAccessKeys(local.AccessKey{ID: "AKIDEXAMPLE", Secret: "example-secret"}))
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()

	ctx := context.Background()
	for _, key := range [][2]string{{"AKIDEXAMPLE", "example-secret"}, {"AKIDEXAMPLE", "guessed"}, {"AKIDSTRANGER", "example-secret"}} {
		c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(hs.URL),
			Credentials: credentials.NewStaticCredentialsProvider(key[0], key[1], ""),
			HTTPClient:  dynamotest.HTTPClient()})
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
		var ae smithy.APIError
		if errors.As(err, &ae) {
			fmt.Println(key[0], "refused:", ae.ErrorCode())
			continue
		}
		fmt.Println(key[0], "served")
	}
	// Output:
	// AKIDEXAMPLE served
	// AKIDEXAMPLE refused: InvalidSignatureException
	// AKIDSTRANGER refused: UnrecognizedClientException
}
