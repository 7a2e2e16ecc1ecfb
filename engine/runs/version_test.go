package runs

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	const rev = "2ca1128c0ab1d2e3f4a5b6c7d8e9f0a1b2c3d4e5"
	info := func(version string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/tealab/tealab", Version: version}, Settings: settings}, true
		}
	}
	revision := debug.BuildSetting{Key: "vcs.revision", Value: rev}
	modified := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	for _, c := range []struct {
		read        func() (*debug.BuildInfo, bool)
		short, line string
	}{
		{func() (*debug.BuildInfo, bool) { return nil, false }, "devel", "tealab (devel) (no commit stamped: build in a git clone with -buildvcs=true)"},
		{info("(devel)"), "devel", "tealab (devel) (no commit stamped: build in a git clone with -buildvcs=true)"},
		{info("(devel)", revision, modified), "devel-2ca1128c0ab1+dirty", "tealab (devel) (commit 2ca1128, modified)"},
		{info("(devel)", revision), "devel-2ca1128c0ab1", "tealab (devel) (commit 2ca1128)"},
		{info("v0.3.0"), "v0.3.0", "tealab v0.3.0"},
		{info("v0.0.0-20261127230000-2ca1128c0ab1", revision), "v0.0.0-20261127230000-2ca1128c0ab1",
			"tealab v0.0.0-20261127230000-2ca1128c0ab1 (commit 2ca1128)"},
	} {
		b := readBuild(c.read)
		if got := b.Short(); got != c.short {
			t.Errorf("%+v: Short() = %q, want %q", b, got, c.short)
		}
		if got := b.String(); got != c.line {
			t.Errorf("%+v: String() = %q, want %q", b, got, c.line)
		}
	}
}
