//go:build race

package dynamo_test

const raceEnabled = true
