package local_test

import (
	"errors"
	"os"
)

func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

func envSet(k string) bool { return os.Getenv(k) != "" }
