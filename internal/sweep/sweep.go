// Package sweep gates the long reference sweeps of the tests. `go test ./...`
// leaves them out so that it stays well under half a minute on two cores;
// TEALAB_LONG=1 turns them on.
//
// A long sweep is a test of its own whose name ends in "Long"
// (TestComparableToWekaLong), so that the long sweeps alone run with
//
//	TEALAB_LONG=1 go test -run 'Long$' ./...
//
// as .ci/run does after the short tests, which it runs once. Skip and Long
// fail a test whose name does not end so, in every run.
package sweep

import (
	"os"
	"strings"
	"testing"
)

// Env is the environment variable that turns the long sweeps on.
const Env = "TEALAB_LONG"

// Suffix ends the name of every test that holds a long sweep.
const Suffix = "Long"

// Skip skips t unless the long sweeps run (Env is set and -short is not),
// saying how to run it: the whole of t is a long sweep.
func Skip(t testing.TB, what string) {
	t.Helper()
	named(t)
	if !on() {
		t.Skipf("%s: a long sweep; %s=1 go test -run '%s$' runs it", what, Env, Suffix)
	}
}

// Long says whether the long sweeps run, for a test that does a little of
// its sweep in every run and all of it in a long one. That little runs
// twice in CI (with -race, then in the long run): keep it little, or split
// the test in two and Skip the long one.
func Long(t testing.TB) bool {
	t.Helper()
	named(t)
	return on()
}

func on() bool { return os.Getenv(Env) != "" && !testing.Short() }

// named fails t unless its name (its top-level test's, for a subtest) ends
// in Suffix.
func named(t testing.TB) {
	t.Helper()
	if top, _, _ := strings.Cut(t.Name(), "/"); !strings.HasSuffix(top, Suffix) {
		t.Fatalf("%s holds a long sweep (package sweep), so its name must end in %q for -run '%s$' to find it", top, Suffix, Suffix)
	}
}
