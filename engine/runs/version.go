package runs

import (
	"fmt"
	"runtime/debug"
)

// Build is how this binary was built, as Go stamped it: the module version
// of a `go install`ed binary ("(devel)" for a build from a work tree), and
// the VCS commit and whether the work tree had changes.
type Build struct {
	Module   string // "v1.2.3", "v0.0.0-2026…-2ca1128c0ab1", or "(devel)"
	Commit   string // the full revision, "" when the build was not stamped
	Modified bool   // the work tree had uncommitted changes
}

// ThisBuild is the running binary's Build.
var ThisBuild = readBuild(debug.ReadBuildInfo)

// Version is tealab's version as the build knows it: the module version of
// a `go install`ed binary, else the VCS revision stamped into the build,
// else "devel". History entries and model files record it, so that a run
// can be told apart from one made by another release.
var Version = ThisBuild.Short()

func readBuild(read func() (*debug.BuildInfo, bool)) Build {
	b := Build{Module: "(devel)"}
	info, ok := read()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "" {
		b.Module = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// released reports whether the module version names a release or a
// pseudo-version (a `go install` of a commit), rather than a work tree.
func (b Build) released() bool { return b.Module != "" && b.Module != "(devel)" }

// Short is the one word a history entry keeps: the module version, else
// "devel-" and the commit's first 12 hex digits (+dirty when modified),
// else "devel".
func (b Build) Short() string {
	if b.released() {
		return b.Module
	}
	if b.Commit == "" {
		return "devel"
	}
	v := "devel-" + shortCommit(b.Commit, 12)
	if b.Modified {
		v += "+dirty"
	}
	return v
}

// String is what `tealab --version` prints: "tealab v1.2.3", then the
// commit when the build knows it, "(commit 2ca1128, modified)". A work-tree
// build that Go did not stamp says so and how to stamp it, rather than
// leaving a bare "(devel)" that cannot be told from any other.
func (b Build) String() string {
	s := "tealab " + b.Module
	if b.Commit == "" && !b.released() {
		return s + " (no commit stamped: build in a git clone with -buildvcs=true)"
	}
	if b.Commit == "" {
		return s
	}
	s += fmt.Sprintf(" (commit %s", shortCommit(b.Commit, 7))
	if b.Modified {
		s += ", modified"
	}
	return s + ")"
}

func shortCommit(rev string, n int) string {
	if len(rev) > n {
		return rev[:n]
	}
	return rev
}
