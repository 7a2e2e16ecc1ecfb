package cli

import (
	"fmt"
	"io"
	"math"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
)

// The sections of the curves of a classifier's held-out scores beside
// the confusion matrix: precision-recall, calibration and lift, pooled
// over the folds as the confusion matrix is (--json has each fold's too,
// "fold_curves"). With two classes each is about the positive class; with
// more, one per class against the rest.

func init() {
	addSection(section{name: "precision-recall", order: 310, write: writePR,
		needs: func(r *runs.Record) bool { return len(r.Result.PR) > 0 }})
	// Past maxClassesShown classes, a table per class would say nothing:
	// the precision-recall section gives the macro average alone, and
	// --json has every curve.
	addSection(section{name: "calibration", order: 320, write: writeCalibration,
		needs: func(r *runs.Record) bool {
			return len(r.Result.Calibration) > 0 && len(r.Result.Calibration) <= maxClassesShown
		}})
	addSection(section{name: "lift", order: 330, write: writeLift,
		needs: func(r *runs.Record) bool { return len(r.Result.Lift) > 0 && len(r.Result.Lift) <= maxClassesShown }})
}

// curvesOf says what a curve section is about: the positive class, or
// each class against the rest, and over which rows.
func curvesOf(r *runs.Record) string {
	res := r.Result
	about := "each class against the rest"
	if res.Positive != "" {
		about = "positive class " + res.Positive
		if r.Options.Positive == "" {
			about += ", the rarer"
		}
	}
	if n := len(res.FoldCurves); n > 1 {
		about += fmt.Sprintf("; pooled over the %d folds' held-out rows", n)
	}
	return about
}

// atRecall is the best precision at a recall of at least r (the
// interpolated precision of the curve).
func atRecall(c metrics.PR, r float64) float64 {
	best := math.NaN()
	for i, x := range c.Recall {
		if x >= r && (math.IsNaN(best) || c.Precision[i] > best) {
			best = c.Precision[i]
		}
	}
	return best
}

func writePR(out io.Writer, r *runs.Record) {
	fmt.Fprintf(out, "\nprecision-recall (%s):\n", curvesOf(r))
	if len(r.Result.PR) > maxClassesShown {
		fmt.Fprintf(out, "  average precision %s, the mean over %d classes (--json has every class's curve, calibration and gains)\n",
			num(metrics.AveragePrecision(r.Result.PR)), len(r.Result.PR))
		return
	}
	rows := [][]string{{"class", "average precision", "prevalence", "precision at recall ≥ 0.5", "0.8", "0.9", "0.95"}}
	for _, c := range r.Result.PR {
		rows = append(rows, []string{trunc(c.Class, 16), num(c.AP), num(c.Prevalence),
			num(atRecall(c, 0.5)), num(atRecall(c, 0.8)), num(atRecall(c, 0.9)), num(atRecall(c, 0.95))})
	}
	writeTable(out, rows)
}

func writeCalibration(out io.Writer, r *runs.Record) {
	cals := r.Result.Calibration
	fmt.Fprintf(out, "\ncalibration (%s; bins: quantiles of the predicted probability):\n", curvesOf(r))
	for _, c := range cals {
		if len(cals) > 1 {
			fmt.Fprintf(out, "  %s:\n", trunc(c.Class, 40))
		}
		rows := [][]string{{"predicted", "rows", "mean predicted", "observed"}}
		for _, b := range c.Bins {
			rows = append(rows, []string{fmt.Sprintf("%.3f–%.3f", b.Lo, b.Hi), fmt.Sprint(b.Count),
				num(b.MeanPredicted), num(b.Observed)})
		}
		writeTable(out, rows)
	}
}

func writeLift(out io.Writer, r *runs.Record) {
	lifts := r.Result.Lift
	fmt.Fprintf(out, "\ncumulative gains and lift (%s; rows ranked by score as for ROC):\n", curvesOf(r))
	head := []string{"top rows"}
	for _, l := range lifts {
		if len(lifts) == 1 {
			head = append(head, "gain", "lift")
			break
		}
		head = append(head, trunc(l.Class, 12))
	}
	rows := [][]string{head}
	for d := range 10 {
		depth := float64(d+1) / 10
		row := []string{fmt.Sprintf("%d%%", 10*(d+1))}
		for _, l := range lifts {
			if d >= len(l.Deciles) {
				row = append(row, num(math.NaN()))
				continue
			}
			row = append(row, num(l.Deciles[d]))
			if len(lifts) == 1 {
				row = append(row, num(metrics.LiftAt(l.Deciles[d], depth)))
			}
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
	if len(r.Result.Lift) > 1 {
		fmt.Fprintln(out, "  gain: the share of each class's rows among the top rows (its lift: the gain over the share of rows taken)")
	}
}
