package cli

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strconv"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/engine/runs"
)

// --predictions FILE.csv writes a row per held-out row scored, per fold:
// which row (its name when the data name their rows, else its 1-based
// number in the data as read; a supplied test set's in the test set),
// the fold that scored it, the actual and predicted values, and then a
// classifier's probability of each class (p(<class>); score(<class>) for
// decision values, one column of class 1's score minus class 0's for two
// classes; none for a model with neither) and whether it was right, a
// regressor's error (predicted − actual). The rows are those of the
// pooled confusion matrix: its off-diagonal counts are the rows whose
// correct is false. The file is written as --save writes (never over an
// input or another output, atomically, through symbolic links), after
// the report.

// checkPredictions refuses, before the fit, a --predictions file that
// could not be written or that names a file the run reads or writes, and
// a model that predicts no target.
func (o *outputFlags) checkPredictions(rec *runs.Record) error {
	if o.predictions == "" {
		return nil
	}
	reads := make([]runs.Read, 0, 4)
	for _, in := range rec.Inputs() {
		reads = append(reads, runs.Read{Path: in})
	}
	if o.save != "" {
		reads = append(reads, runs.Read{Path: o.save, What: "also the --save file"})
	}
	if o.saveModel != "" {
		reads = append(reads, runs.Read{Path: o.saveModel, What: "also the --save-model file"})
	}
	if err := runs.CheckReads(o.predictions, reads...); err != nil {
		return usagef("%s: --predictions %v", o.cmd, err)
	}
	if task, _ := rec.Spec.RunsOn(rec.Dataset.Task); !task.Supervised() {
		return usagef("%s: --predictions writes a classifier's or a regressor's predictions of held-out rows; %s does %s, fitted on every row: leave --predictions out", o.cmd, rec.Spec.Name, task)
	}
	return nil
}

// predictionsCSV is the file --predictions writes.
func predictionsCSV(rec *runs.Record) ([]byte, error) {
	var classes []string
	if rec.Dataset != nil {
		classes = rec.Dataset.Classes
	}
	head, rows, err := predictionTable(rec.Result, classes, rec.Task() == datasets.Classification)
	if err != nil {
		return nil, err
	}
	return csvOf(append([][]string{head}, rows...))
}

// predictionTable is res's held-out rows as --predictions writes them:
// the header, then a record a row.
func predictionTable(res *eval.Result, classes []string, classify bool) (head []string, rows [][]string, err error) {
	if res == nil || len(res.TestRows) != len(res.Actual) || len(res.TestFolds) != len(res.Actual) || len(res.Predicted) != len(res.Actual) {
		return nil, nil, errors.New("the run kept no predictions to write")
	}
	head = []string{"row", "fold", "actual", "predicted"}
	scoreCols := 0
	if classify && res.Scores != nil {
		_, scoreCols = res.Scores.Dims()
		name := "p("
		if !res.Proba {
			name = "score("
		}
		for c := range scoreCols {
			l := classes[c]
			if scoreCols == 1 && len(classes) == 2 {
				l = classes[1]
			}
			head = append(head, name+l+")")
		}
	}
	if classify {
		head = append(head, "correct")
	} else {
		head = append(head, "error")
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i, a := range res.Actual {
		row := strconv.Itoa(res.TestRows[i] + 1)
		if res.TestNames != nil { // names, or numbers in the file when rows were left out or a test set was read
			row = res.TestNames[i]
		}
		rec := []string{row, strconv.Itoa(res.TestFolds[i])}
		p := res.Predicted[i]
		if !classify {
			rows = append(rows, append(rec, num(a), num(p), num(p-a)))
			continue
		}
		rec = append(rec, classes[int(a)], classes[int(p)])
		for c := range scoreCols {
			rec = append(rec, num(res.Scores.At(i, c)))
		}
		rows = append(rows, append(rec, strconv.FormatBool(a == p)))
	}
	return head, rows, nil
}

// csvOf is records as CSV.
func csvOf(records [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(records); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// comparePredictionsCSV is compare's --predictions: every cell's held-out
// rows, as train writes them, after the dataset, the model and the repeat
// (1-based). Data sets of other classes share the file: a score column
// is blank in the rows of a data set that has no such class.
func comparePredictionsCSV(o *experiment.Outcome) ([]byte, error) {
	head := []string{"dataset", "model", "repeat"}
	col := map[string]int{}
	type cellRows struct {
		lead []string
		head []string
		rows [][]string
	}
	var cells []cellRows
	for i := range o.Cells {
		c := &o.Cells[i]
		if c.Rows == nil {
			continue
		}
		d := o.Plan.Datasets[c.Dataset]
		h, rows, err := predictionTable(c.Rows, d.Classes, d.Task == datasets.Classification)
		if err != nil {
			continue // a run that failed before any fold: no rows
		}
		for _, name := range h {
			if _, ok := col[name]; !ok {
				col[name] = len(head)
				head = append(head, name)
			}
		}
		cells = append(cells, cellRows{[]string{d.Name, o.Plan.Models[c.Model].Label, strconv.Itoa(c.Repeat + 1)}, h, rows})
	}
	if len(cells) == 0 {
		return nil, errors.New("no model run kept predictions to write")
	}
	records := [][]string{head}
	for _, c := range cells {
		for _, r := range c.rows {
			rec := make([]string, len(head))
			copy(rec, c.lead)
			for k, v := range r {
				rec[col[c.head[k]]] = v
			}
			records = append(records, rec)
		}
	}
	return csvOf(records)
}

// writePredictions writes --predictions after the report.
func (o *outputFlags) writePredictions(rec *runs.Record) error {
	if o.predictions == "" {
		return nil
	}
	data, err := predictionsCSV(rec)
	if err == nil {
		if err = runs.CheckTarget(o.predictions, rec.Inputs()...); err == nil {
			err = runs.WriteFile(o.predictions, data)
		}
	}
	if err != nil {
		return errors.New("--predictions: " + err.Error() + " (the report above is the run's)")
	}
	return nil
}
