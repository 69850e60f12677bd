//go:build !race

package dynamo_test

const raceEnabled = false
