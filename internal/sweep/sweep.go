// Package sweep gates the long reference sweeps of the tests. `go test ./...`
// leaves them out so that it stays well under half a minute on two cores;
// TEALAB_LONG=1 go test ./... runs them too, and .ci/run does so on every
// submission.
package sweep

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long sweeps on.
const Env = "TEALAB_LONG"

// Long says whether the long sweeps run: Env is set and -short is not.
func Long() bool { return os.Getenv(Env) != "" && !testing.Short() }

// Skip skips t unless the long sweeps run, saying how to run it.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Long() {
		t.Skipf("%s: a long sweep; %s=1 go test runs it", what, Env)
	}
}
