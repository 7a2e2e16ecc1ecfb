package cli

import (
	"strings"
	"testing"
)

// The lab's own flag errors say "tealab: " once, `help
// tealab` shows the lab's flags, and --model without --data is checked
// (it is applied once the data are chosen in the lab).
func TestLabFlagErrors(t *testing.T) {
	_, errOut, status := run(t, "--bogus")
	if status != exitUsage {
		t.Errorf("--bogus: status %d, want %d", status, exitUsage)
	}
	if strings.Count(errOut, "tealab:") != 1 || !strings.Contains(errOut, "-bogus") {
		t.Errorf("--bogus: message %q should name the flag after one 'tealab:' prefix", errOut)
	}

	out, errOut, status := run(t, "help", "tealab")
	if status != exitOK || !strings.Contains(out, "-train") || !strings.Contains(out, "-theme") {
		t.Errorf("help tealab: status %d, stderr %q, stdout lacks the lab's flags:\n%s", status, errOut, out)
	}

	_, errOut, status = run(t, "--model", "nope")
	if status != exitUsage || !strings.Contains(errOut, "nope") {
		t.Errorf("--model nope without --data: status %d, %q", status, errOut)
	}
	_, errOut, status = run(t, "--model", "ridge", "--param", "alpha=-1")
	if status != exitUsage || !strings.Contains(errOut, "alpha") {
		t.Errorf("--model with a bad --param and no --data: status %d, %q", status, errOut)
	}
}

// The lab cannot read its data from standard input (its keys come from
// there): it says so before the screen takes over.
func TestLabRefusesStdin(t *testing.T) {
	_, errOut, status := run(t, "--data", "-")
	if status != 2 || !strings.Contains(errOut, "cannot read data there") {
		t.Errorf("status %d: %s", status, errOut)
	}
}
