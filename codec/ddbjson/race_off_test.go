//go:build !race

package ddbjson

const raceEnabled = false
