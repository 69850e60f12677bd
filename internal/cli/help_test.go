package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// Every command, including those added later, shows an example in its
// help.
func TestEveryCommandHasAnExample(t *testing.T) {
	for name, c := range commands {
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("command %s has no Example", name)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(c.Example), "\n") {
			if !strings.HasPrefix(line, "dynamo "+name) && !strings.HasPrefix(line, "aws ") && !strings.HasPrefix(line, "source ") {
				t.Errorf("command %s: example line %q does not run it", name, line)
			}
		}
	}
}

func TestVersionText(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"released", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}},
			"dynamo github.com/dynamogo/dynamo v1.2.3\ngo     go1.26.1\ncommit unknown (built without version control information)\n"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: modulePath, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"dynamo github.com/dynamogo/dynamo (devel)\ngo     go1.26.1\ncommit abc123 2026-12-01T10:00:00Z with uncommitted changes\n"},
		{"dependency", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "example.com/app"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.9.0"}}},
			"dynamo github.com/dynamogo/dynamo v0.9.0\ngo     go1.26.1\ncommit unknown (built without version control information)\n"},
		{"no build info", nil,
			"dynamo github.com/dynamogo/dynamo (devel)\ngo     unknown\ncommit unknown (built without version control information)\n"},
	} {
		if got := versionText(tc.bi); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
