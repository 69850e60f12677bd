// Package difftest is the optional differential tier.
package difftest
