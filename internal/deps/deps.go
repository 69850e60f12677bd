// Package deps pins the modules the packages under construction use, so that
// concurrent work never races on go.mod. It is removed once every dependency
// is imported for real.
package deps

import (
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/credentials"
	_ "github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/smithy-go"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/shopspring/decimal"
)
