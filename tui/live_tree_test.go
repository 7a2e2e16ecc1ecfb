package tui

import (
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tree"
	"github.com/tealab/tealab/tui/kit"
)

// stepsWith are progress steps of one fold carrying details, in order.
func stepsWith(details ...engine.Detail) []eval.Progress {
	steps := make([]eval.Progress, len(details))
	for i, d := range details {
		p := eval.Point{Step: i + 1, TrainLoss: 1 / float64(i+1), ValLoss: math.NaN(), ValError: math.NaN(), Detail: d}
		steps[i] = eval.Progress{Fold: 1, Folds: 1, Point: p}
	}
	return steps
}

// A decision tree's steps say how it grows, then how it is pruned: the
// training screen draws its leaves in a pane of their own, rising then
// falling, and lists the step's figures in the family's order.
func TestTreeSizeLiveView(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {200, 60}} {
		a := trainingScreenFor(t, "tree", size[0], size[1])
		var details []engine.Detail
		for i, l := range []int{2, 4, 8, 16, 32} {
			details = append(details, tree.Growth{Nodes: 2*l - 1, Leaves: l, Depth: i + 1})
		}
		for _, l := range []int{24, 17, 11} {
			details = append(details, tree.Pruning{Leaves: l, Measure: "estimated_error", Value: 0.125})
		}
		a.train.Progress(kit.ProgressMsg{Run: 1, Steps: stepsWith(details...)})
		v := view(a)
		checkFrame(t, v, size[0], size[1])
		p := pane(v, "tree size")
		if p == nil {
			t.Fatalf("%dx%d: no tree size pane:\n%s", size[0], size[1], v)
		}
		if body := strings.Join(p, "\n"); !strings.Contains(body, "leaves 11") || curveRows(p) < 3 {
			t.Errorf("%dx%d: the leaves' curve:\n%s", size[0], size[1], body)
		}
		mustContain(t, v, "leaves 11   estimated error 0.125")
	}
}

// AdaBoost's rounds: the weighted error of each round's tree and its vote,
// each in a pane of its own. A run whose steps carry neither (logistic
// regression) has no pane of the tree family.
func TestBoostingLiveView(t *testing.T) {
	t.Parallel()
	a := trainingScreenFor(t, "adaboost", 120, 40)
	a.train.Progress(kit.ProgressMsg{Run: 1, Steps: stepsWith(
		tree.BoostRound{TrainError: 0.3, WeightedError: 0.3, Vote: 0.42},
		tree.BoostRound{TrainError: 0.2, WeightedError: 0.4, Vote: 0.2},
		tree.BoostRound{TrainError: 0.1, WeightedError: 0.45, Vote: 0.1})})
	v := view(a)
	checkFrame(t, v, 120, 40)
	for title, legend := range map[string]string{"weighted training error": "weighted error 0.45", "its vote β": "vote β 0.1"} {
		if p := pane(v, title); p == nil || !strings.Contains(strings.Join(p, "\n"), legend) {
			t.Errorf("pane %q lacks %q:\n%s", title, legend, v)
		}
	}
	mustContain(t, v, "train error 0.100   err 0.450   beta 0.100")
	v = view(trainingApp(t, 120, 40, 10))
	for _, title := range []string{"tree size", "this round's tree"} {
		if strings.Contains(v, title) {
			t.Errorf("logistic regression drew %q:\n%s", title, v)
		}
	}
}
