// Package dynamolambda decodes the DynamoDB stream records that AWS Lambda
// hands to a function into the typed changes of package dynamo, the same
// [dynamo.Change] values [dynamo.Table.Changes] reads from a stream, and
// answers Lambda with its partial batch response.
//
// It reads the event's JSON itself, so neither it nor the dynamo module
// depends on the Lambda libraries: [Event] is the handler's argument (the
// Lambda runtime decodes the payload into it with encoding/json), and an
// aws-lambda-go events.DynamoDBEvent marshals to the same JSON.
//
//	lambda.Start(func(ctx context.Context, e dynamolambda.Event) (dynamolambda.Response, error) {
//		resp := dynamolambda.Handle(ctx, Orders, e, func(ctx context.Context, c dynamo.Change[Order]) error {
//			return index(ctx, c)
//		})
//		if resp.Err != nil {
//			log.Print(resp.Err) // Lambda retries from the failed record
//		}
//		return resp, nil
//	})
//
// Records of other entities of a single table are skipped by the schema's
// own test ([schema.Schema.Owns]), as the change feed skips them.
package dynamolambda
