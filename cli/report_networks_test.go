package cli

import (
	"strings"
	"testing"
)

// A network's report lists its layers, inputs to output, with their sizes
// and weights: 4 inputs to 16 units are (4+1)·16 = 80 weights, 16 to 3
// outputs (16+1)·3 = 51; a CNN's 16 masks of 3×3 and their biases 160.
func TestNetworkSection(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "mlp", "--param", "hidden=16", "--param", "epochs=2")
	want := "network, model fitted on the 120 training rows of the hold-out: 4 inputs, 131 weights\n" +
		"  dense 1         16 relu                   80 weights\n" +
		"  output           3 softmax                51 weights\n"
	if status != 0 || !strings.Contains(out, want) {
		t.Errorf("mlp: status %d\n%s%s\nwant\n%s", status, out, errOut, want)
	}
	out, errOut, status = run(t, "train", "--data", "digits", "--model", "cnn", "--param", "epochs=1")
	want = "  conv      16 masks relu     → 16×8×8     160 weights\n  pool                        → 16×4×4\n"
	if status != 0 || !strings.Contains(out, want) {
		t.Errorf("cnn: status %d\n%s%s\nwant\n%s", status, out, errOut, want)
	}
}
