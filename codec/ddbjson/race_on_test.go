//go:build race

package ddbjson

const raceEnabled = true
