//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package cli

import (
	"errors"
	"os"
)

// makeRaw is not available here: the shell reads plain lines.
func makeRaw(*os.File) (func(), error) {
	return nil, errors.New("no raw terminal mode on this platform")
}
