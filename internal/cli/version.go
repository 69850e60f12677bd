package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
)

func init() {
	Register(&Command{
		Name:    "version",
		Summary: "print the module version, the Go version and the commit",
		Usage:   "",
		Help: `Prints the version of the module the binary was built from ("(devel)" when
built inside a checkout), the Go version that built it and the commit, as
recorded by the go command; --version does the same.`,
		Example: "dynamo version",
		Run: func(ctx context.Context, env *Env, args []string) error {
			if pos, err := parseArgs(newFlagSet("version"), args); err != nil {
				return err
			} else if len(pos) > 0 {
				return usagef("unexpected argument %q", pos[0])
			}
			bi, _ := debug.ReadBuildInfo()
			fmt.Fprint(env.Stdout, versionText(bi))
			return nil
		},
	})
}

// modulePath is the module the dynamo command belongs to.
const modulePath = "github.com/dynamogo/dynamo"

// versionText renders the build information; what the go command did not
// record is said to be unknown rather than guessed.
func versionText(bi *debug.BuildInfo) string {
	version, goVersion := "(devel)", "unknown"
	var rev, at string
	modified := false
	if bi != nil {
		goVersion = bi.GoVersion
		if bi.Main.Path == modulePath && bi.Main.Version != "" {
			version = bi.Main.Version
		} else {
			for _, d := range bi.Deps { // a binary of another module (a test) that requires this one
				if d.Path == modulePath && d.Version != "" {
					version = d.Version
				}
			}
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	commit := "unknown (built without version control information)"
	if rev != "" {
		commit = strings.TrimSpace(rev + " " + at)
		if modified {
			commit += " with uncommitted changes"
		}
	}
	return fmt.Sprintf("dynamo %s %s\ngo     %s\ncommit %s\n", modulePath, version, goVersion, commit)
}
