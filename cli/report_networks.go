package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/nn"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// The section for what a network learned: its layers, inputs to output,
// with their sizes and how many weights each learned.

func init() {
	addSection(section{name: "network", order: nn.CapNetwork.Order, write: writeNetwork, needs: hasLearned(nn.CapNetwork.Name)})
}

func writeNetwork(out io.Writer, r *runs.Record) {
	net, ok := eval.LearnedAs[nn.Network](r.Result, nn.CapNetwork.Name)
	if !ok || len(net.Layers) == 0 {
		return
	}
	total := 0
	for _, l := range net.Layers {
		total += l.Weights
	}
	fmt.Fprintf(out, "\nnetwork, model fitted on %s: %s, %s\n", r.Result.FittedOn, numfmt.Count(net.Inputs, "input"), numfmt.Count(total, "weight"))
	dense := 0
	for _, l := range net.Layers {
		name := l.Kind
		if l.Kind == "dense" {
			dense++
			name = fmt.Sprintf("dense %d", dense)
		}
		size := fmt.Sprint(l.Units)
		if l.Kind == "conv" {
			size = numfmt.Count(l.Units, "mask")
		}
		if l.Kind == "pool" {
			size = ""
		}
		shape := ""
		if len(l.Shape) > 0 {
			dims := make([]string, len(l.Shape))
			for i, d := range l.Shape {
				dims[i] = fmt.Sprint(d)
			}
			shape = "→ " + strings.Join(dims, "×")
		}
		weights := ""
		if l.Weights > 0 {
			weights = numfmt.Count(l.Weights, "weight")
		}
		line := fmt.Sprintf("  %-8s %9s %-8s %-10s %13s", name, size, l.Activation, shape, weights)
		fmt.Fprintln(out, strings.TrimRight(line, " "))
	}
}
