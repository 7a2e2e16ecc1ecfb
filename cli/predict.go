package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/modelfile"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"gonum.org/v1/gonum/mat"
)

// runPredict applies a model file (tealab train --save-model) to new rows.
func runPredict(args []string, out, stderr io.Writer) error {
	fs := newFlags("predict")
	file := fs.String("model-file", "", "the model file to apply (written by tealab train --save-model or the lab)")
	source := fs.String("data", "", "the rows to predict: built-in name, generator[:knobs], file path, or - for standard input")
	format := fs.String("format", "", "file format when the name does not tell: csv, tsv or arff")
	asJSON := fs.Bool("json", false, "print the predictions as one JSON object")
	asCSV := fs.Bool("csv", false, "print the predictions as CSV (row names first when the data have them)")
	proba := fs.Bool("proba", false, "add each class's probability (classifiers that give them)")
	keepList := fs.String("keep", "", "columns to pass through beside the predictions, comma-separated (default: every column that is not a feature of the model, but its target; \"\" or none: no column)")
	score := fs.Bool("score", false, "score the predictions against the data's target column: the metrics tealab train reports (on stderr with --csv)")
	outFile := fs.String("out", "", "write the predictions to FILE instead of standard output")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	keepSet := false
	fs.Visit(func(f *flag.Flag) { keepSet = keepSet || f.Name == "keep" })
	switch {
	case *file == "":
		return usagef("predict: --model-file is required (tealab train --save-model FILE writes one)")
	case *source == "":
		return usagef("predict: --data is required (the rows to predict)")
	case *asJSON && *asCSV:
		return usagef("predict: choose one of --json and --csv")
	case *format != "" && !slices.Contains(datasets.Formats, *format):
		return usagef("predict: --format %q: use one of %s", *format, strings.Join(datasets.Formats, ", "))
	}
	if *outFile != "" {
		if err := runs.CheckReads(*outFile, runs.Read{Path: *source}, runs.Read{Path: *file, What: "the model file this prediction reads"}); err != nil {
			return usagef("predict: --out %v", err)
		}
	}
	m, err := modelfile.Open(*file)
	if err != nil {
		return err
	}
	if *score && m.File.Target == "" {
		return usagef("predict: --score scores a classifier or a regressor against its target; %s does %s: leave out --score", m.Spec.Name, m.File.Task)
	}
	tab, err := datasets.OpenFormat(*source, *format)
	if err != nil {
		return err
	}
	if *score && tab.ColumnIndex(m.File.Target) < 0 {
		return usagef("predict: --score: %s has no column %q, the model's target (columns: %s); leave out --score to predict without scoring", tab.Name, m.File.Target, columnNames(tab.Columns))
	}
	p, err := m.Predict(tab, *proba)
	if errors.Is(err, modelfile.ErrNoProba) {
		return usagef("predict: %v; leave out --proba", err)
	}
	if err != nil {
		return fmt.Errorf("predict with %s: %w", *file, err)
	}
	outputs := predictionHeader(m, p)
	if p.Warnings != nil {
		outputs = append(outputs, "warning")
	}
	if !*asJSON && (!*asCSV || p.RowNames != nil) {
		outputs = append(outputs, "row")
	}
	keep, err := keptColumns(tab, m, *keepList, keepSet, outputs, stderr)
	if err != nil {
		return err
	}
	var scores *modelfile.Scores
	if *score {
		if scores, err = m.Score(tab, p); err != nil {
			return fmt.Errorf("predict --score with %s: %w", *file, err)
		}
	}
	var buf bytes.Buffer
	pr := predicted{m: m, p: p, t: tab, keep: keep}
	switch {
	case *asJSON:
		err = writePredictionJSON(&buf, pr, scores)
	case *asCSV:
		err = writePredictionCSV(&buf, pr)
	default:
		writePredictionTable(&buf, pr)
		if scores != nil {
			writeScores(&buf, m, scores)
		}
	}
	if err != nil {
		return err
	}
	if d := m.Decision(); d != "" {
		fmt.Fprintln(stderr, "tealab: deciding "+d)
	}
	if p.Warned > 0 {
		fmt.Fprintln(stderr, "tealab: "+warnedRows(p))
	}
	if *asCSV && scores != nil {
		writeScores(stderr, m, scores)
	}
	if *outFile != "" {
		return runs.WriteFile(*outFile, buf.Bytes())
	}
	_, err = out.Write(buf.Bytes())
	return err
}

// predicted is what the writers print: the model, its predictions, the
// table predicted and the columns passed through.
type predicted struct {
	m    *modelfile.Model
	p    *modelfile.Prediction
	t    *datasets.Table
	keep []int // columns of t passed through, in order
}

// keptColumns are the columns of t passed through beside the predictions:
// those --keep names (list; "" or none: none), else every column that is
// not a feature of the model, but its target (whose name the prediction
// takes) and any named as an output column (outputs), said on stderr.
func keptColumns(t *datasets.Table, m *modelfile.Model, list string, set bool, outputs []string, stderr io.Writer) ([]int, error) {
	if set {
		list = strings.TrimSpace(list)
		if list == "" || list == "none" {
			return nil, nil
		}
		var keep []int
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			j := t.ColumnIndex(name)
			switch {
			case j < 0:
				return nil, usagef("predict: --keep %q: %s has no such column (columns: %s)", name, t.Name, columnNames(t.Columns))
			case slices.Contains(outputs, name):
				return nil, usagef("predict: --keep %q: the output has a column of that name already (%s)", name, strings.Join(outputs, ", "))
			case !slices.Contains(keep, j):
				keep = append(keep, j)
			}
		}
		return keep, nil
	}
	features := map[string]bool{}
	for _, f := range m.File.Features {
		features[f.Name] = true
	}
	var keep []int
	var names []string
	for j, c := range t.Columns {
		if features[c.Name] || c.Name == m.File.Target || slices.Contains(outputs, c.Name) {
			continue
		}
		keep = append(keep, j)
		names = append(names, quoteName(c.Name))
	}
	if len(keep) > 0 {
		fmt.Fprintf(stderr, "tealab: keeping %s (not features of the model; --keep chooses, --keep none keeps none)\n", datasets.Printable(strings.Join(names, ", ")))
	}
	return keep, nil
}

// warnedRows says on stderr how many rows were predicted on values the
// model takes as it does in training.
func warnedRows(p *modelfile.Prediction) string {
	var what []string
	if p.Unseen > 0 {
		what = append(what, numfmt.Count(p.Unseen, "level")+" the model never saw")
	}
	if p.Missing > 0 {
		what = append(what, numfmt.Count(p.Missing, "missing value"))
	}
	return fmt.Sprintf("warning: %d of %s hold %s, taken as in training; the warnings say which",
		p.Warned, numfmt.Count(p.Rows(), "row"), strings.Join(what, " and "))
}

// quoteName is a column's name in a list: quoted when it is empty or holds
// a comma or a space.
func quoteName(name string) string {
	if name == "" || strings.ContainsAny(name, " ,\"") {
		return strconv.Quote(name)
	}
	return name
}

// columnNames lists a table's columns, the first dozen.
func columnNames(cols []datasets.Column) string {
	var names []string
	for i, c := range cols {
		if i == 12 && len(cols) > 14 {
			names = append(names, fmt.Sprintf("... %d more", len(cols)-12))
			break
		}
		names = append(names, quoteName(c.Name))
	}
	return datasets.Printable(strings.Join(names, ", "))
}

// keptCell is row i's value of column j of t as read: a level, a number
// as it round-trips, "" when missing.
func keptCell(t *datasets.Table, i, j int) string {
	v, c := t.Data.At(i, j), t.Columns[j]
	switch {
	case math.IsNaN(v):
		return ""
	case c.Kind == datasets.Nominal && v >= 0 && int(v) < len(c.Levels):
		return c.Levels[int(v)]
	}
	return exact(v)
}

// writeScores prints the scores of a prediction as tealab train prints a
// run's: its metric table and, for a classifier, the confusion matrix and
// the classes (the same sections, from a record that holds them).
func writeScores(out io.Writer, m *modelfile.Model, s *modelfile.Scores) {
	what := numfmt.Count(s.Rows, "row")
	if s.Dropped > 0 {
		what += fmt.Sprintf(" (%s without a %s left out)", numfmt.Count(s.Dropped, "row"), s.Target)
	}
	fmt.Fprintf(out, "\nscored against %s: %s\n", datasets.Printable(s.Target), what)
	task, _ := datasets.ParseTask(m.File.Task)
	baseline := s.Baseline
	if baseline == nil {
		baseline = map[string]float64{}
	}
	rec := &runs.Record{Spec: m.Spec, Result: &eval.Result{Task: task.String(), Metrics: s.Metrics, Baseline: baseline,
		Confusion: s.Confusion, Classes: s.Classes}}
	writeMetrics(out, rec)
	if s.Confusion != nil {
		writeConfusion(out, rec)
	}
}

// predictionHeader names the columns after the row names: the target (or
// "cluster"), or the components; then one probability a class.
func predictionHeader(m *modelfile.Model, p *modelfile.Prediction) []string {
	var head []string
	switch {
	case p.Components != nil:
		head = slices.Clone(p.Names)
	case p.Task == datasets.Clustering.String():
		head = []string{"cluster"}
	case m.File.Target != "":
		head = []string{m.File.Target}
	default:
		head = []string{"prediction"}
	}
	for _, c := range p.Classes {
		head = append(head, "P("+c+")")
	}
	return head
}

// predictionCells is row i's cells after its name, formatted by format.
func predictionCells(p *modelfile.Prediction, i int, format func(float64) string) []string {
	var cells []string
	switch {
	case p.Components != nil:
		for _, v := range p.Components.RawRowView(i) {
			cells = append(cells, format(v))
		}
	case p.Labels != nil:
		cells = append(cells, p.Labels[i])
	case p.Task == datasets.Clustering.String():
		cells = append(cells, strconv.Itoa(int(p.Values[i])))
	default:
		cells = append(cells, format(p.Values[i]))
	}
	if p.Proba != nil {
		for _, v := range p.Proba.RawRowView(i) {
			cells = append(cells, format(v))
		}
	}
	return cells
}

// exact is a number as it round-trips (CSV and JSON are read by programs).
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func writePredictionTable(out io.Writer, pr predicted) {
	m, p, t := pr.m, pr.p, pr.t
	head := []string{"row"}
	for _, j := range pr.keep {
		head = append(head, t.Columns[j].Name)
	}
	head = append(head, predictionHeader(m, p)...)
	if p.Warnings != nil {
		head = append(head, "warning")
	}
	rows := [][]string{head}
	for i := range p.Rows() {
		name := strconv.Itoa(i + 1)
		if p.RowNames != nil {
			name = p.RowNames[i]
		}
		row := []string{name}
		for _, j := range pr.keep {
			row = append(row, keptCell(t, i, j))
		}
		row = append(row, predictionCells(p, i, numfmt.Value)...)
		if p.Warnings != nil {
			row = append(row, p.Warnings[i])
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
}

func writePredictionCSV(out io.Writer, pr predicted) error {
	m, p, t := pr.m, pr.p, pr.t
	var head []string
	if p.RowNames != nil {
		head = append(head, "row")
	}
	for _, j := range pr.keep {
		head = append(head, t.Columns[j].Name)
	}
	head = append(head, predictionHeader(m, p)...)
	if p.Warnings != nil {
		head = append(head, "warning")
	}
	rows := [][]string{head}
	for i := range p.Rows() {
		var cells []string
		if p.RowNames != nil {
			cells = append(cells, p.RowNames[i])
		}
		for _, j := range pr.keep {
			cells = append(cells, keptCell(t, i, j))
		}
		cells = append(cells, predictionCells(p, i, exact)...)
		if p.Warnings != nil {
			cells = append(cells, p.Warnings[i])
		}
		rows = append(rows, cells)
	}
	for _, row := range rows { // names from files may hold a terminal's escapes, as writeTable says
		for j := range row {
			row[j] = datasets.Printable(row[j])
		}
	}
	return csv.NewWriter(out).WriteAll(rows)
}

// predictionJSON is `tealab predict --json`: column by column; with
// --score, the scores under the names `tealab train --json` gives them.
type predictionJSON struct {
	ModelFile     string           `json:"model"`
	Task          string           `json:"task"`
	Target        string           `json:"target,omitempty"`
	Rows          int              `json:"rows"`
	RowNames      []string         `json:"row_names,omitempty"`
	Kept          []keptJSON       `json:"kept,omitempty"`       // the columns passed through
	Predictions   any              `json:"predictions"`          // class names, values, cluster indices, or rows of components
	Components    []string         `json:"components,omitempty"` // the names of a reduction's columns
	Classes       []string         `json:"classes,omitempty"`
	Probabilities [][]numfmt.Float `json:"probabilities,omitempty"` // one row a row, one column a class
	Warnings      []string         `json:"warnings,omitempty"`      // one a row, "" for none; absent when no row has one
	Positive      string           `json:"positive,omitempty"`      // two classes: the positive class
	Threshold     *float64         `json:"threshold,omitempty"`     // the decision's threshold on its score, when the run chose one under costs
	Decision      string           `json:"decision,omitempty"`      // how classes were decided beyond the model's own rule

	ScoredRows int                     `json:"scored_rows,omitempty"`
	Metrics    map[string]numfmt.Float `json:"metrics,omitempty"`
	Baseline   map[string]numfmt.Float `json:"baseline,omitempty"`
	Confusion  *metrics.Confusion      `json:"confusion,omitempty"`
	PerClass   []metrics.ClassReport   `json:"per_class,omitempty"`
}

// keptJSON is a column passed through: its values as read, a level as a
// string, a number as a number, a missing value as null.
type keptJSON struct {
	Column string `json:"column"`
	Values []any  `json:"values"`
}

func writePredictionJSON(out io.Writer, pr predicted, s *modelfile.Scores) error {
	m, p, t := pr.m, pr.p, pr.t
	j := predictionJSON{ModelFile: m.Spec.Name, Task: p.Task, Target: m.File.Target, Rows: p.Rows(),
		RowNames: p.RowNames, Classes: p.Classes, Warnings: p.Warnings,
		Positive: m.File.Positive, Threshold: m.File.Threshold, Decision: m.Decision()}
	for _, k := range pr.keep {
		c := t.Columns[k]
		values := make([]any, p.Rows())
		for i := range values {
			v := t.Data.At(i, k)
			switch {
			case math.IsNaN(v):
			case c.Kind == datasets.Nominal:
				values[i] = keptCell(t, i, k)
			default:
				values[i] = numfmt.Float(v)
			}
		}
		j.Kept = append(j.Kept, keptJSON{Column: c.Name, Values: values})
	}
	switch {
	case p.Components != nil:
		j.Predictions, j.Components = matrixRows(p.Components), p.Names
	case p.Labels != nil:
		j.Predictions = p.Labels
	case p.Task == datasets.Clustering.String():
		ints := make([]int, len(p.Values))
		for i, v := range p.Values {
			ints[i] = int(v)
		}
		j.Predictions = ints
	default:
		j.Predictions = numfmt.Floats(p.Values)
	}
	if p.Proba != nil {
		j.Probabilities = matrixRows(p.Proba)
	}
	if s != nil {
		j.ScoredRows, j.Metrics, j.Baseline = s.Rows, floatMap(s.Metrics), floatMap(s.Baseline)
		j.Confusion, j.PerClass = s.Confusion, s.Classes
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// floatMap is m with NaN and infinities as null in JSON; nil stays nil.
func floatMap(m map[string]float64) map[string]numfmt.Float {
	if m == nil {
		return nil
	}
	out := make(map[string]numfmt.Float, len(m))
	for k, v := range m {
		out[k] = numfmt.Float(v)
	}
	return out
}

// matrixRows is M row by row, NaN as null.
func matrixRows(M *mat.Dense) [][]numfmt.Float {
	r, _ := M.Dims()
	out := make([][]numfmt.Float, r)
	for i := range out {
		out[i] = numfmt.Floats(M.RawRowView(i))
	}
	return out
}
