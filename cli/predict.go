package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/modelfile"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"gonum.org/v1/gonum/mat"
)

// runPredict applies a model file (tealab train --save-model) to new rows.
func runPredict(args []string, out io.Writer) error {
	fs := newFlags("predict")
	file := fs.String("model-file", "", "the model file to apply (written by tealab train --save-model or the lab)")
	source := fs.String("data", "", "the rows to predict: built-in name, generator[:knobs], file path, or - for standard input")
	format := fs.String("format", "", "file format when the name does not tell: csv, tsv or arff")
	asJSON := fs.Bool("json", false, "print the predictions as one JSON object")
	asCSV := fs.Bool("csv", false, "print the predictions as CSV (row names first when the data have them)")
	proba := fs.Bool("proba", false, "add each class's probability (classifiers that give them)")
	outFile := fs.String("out", "", "write the predictions to FILE instead of standard output")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
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
	tab, err := datasets.OpenFormat(*source, *format)
	if err != nil {
		return err
	}
	p, err := m.Predict(tab, *proba)
	if errors.Is(err, modelfile.ErrNoProba) {
		return usagef("predict: %v; leave out --proba", err)
	}
	if err != nil {
		return fmt.Errorf("predict with %s: %w", *file, err)
	}
	var buf bytes.Buffer
	switch {
	case *asJSON:
		err = writePredictionJSON(&buf, m, p)
	case *asCSV:
		err = writePredictionCSV(&buf, m, p)
	default:
		writePredictionTable(&buf, m, p)
	}
	if err != nil {
		return err
	}
	if *outFile != "" {
		return runs.WriteFile(*outFile, buf.Bytes())
	}
	_, err = out.Write(buf.Bytes())
	return err
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

func writePredictionTable(out io.Writer, m *modelfile.Model, p *modelfile.Prediction) {
	rows := [][]string{append([]string{"row"}, predictionHeader(m, p)...)}
	for i := range p.Rows() {
		name := strconv.Itoa(i + 1)
		if p.RowNames != nil {
			name = p.RowNames[i]
		}
		rows = append(rows, append([]string{name}, predictionCells(p, i, numfmt.Value)...))
	}
	writeTable(out, rows)
}

func writePredictionCSV(out io.Writer, m *modelfile.Model, p *modelfile.Prediction) error {
	w := csv.NewWriter(out)
	head := predictionHeader(m, p)
	if p.RowNames != nil {
		head = append([]string{"row"}, head...)
	}
	rows := [][]string{head}
	for i := range p.Rows() {
		cells := predictionCells(p, i, exact)
		if p.RowNames != nil {
			cells = append([]string{p.RowNames[i]}, cells...)
		}
		rows = append(rows, cells)
	}
	for _, row := range rows { // names from files may hold a terminal's escapes, as writeTable says
		for j := range row {
			row[j] = datasets.Printable(row[j])
		}
	}
	return w.WriteAll(rows)
}

// predictionJSON is `tealab predict --json`: column by column.
type predictionJSON struct {
	ModelFile     string           `json:"model"`
	Task          string           `json:"task"`
	Target        string           `json:"target,omitempty"`
	Rows          int              `json:"rows"`
	RowNames      []string         `json:"row_names,omitempty"`
	Predictions   any              `json:"predictions"`          // class names, values, cluster indices, or rows of components
	Components    []string         `json:"components,omitempty"` // the names of a reduction's columns
	Classes       []string         `json:"classes,omitempty"`
	Probabilities [][]numfmt.Float `json:"probabilities,omitempty"` // one row a row, one column a class
}

func writePredictionJSON(out io.Writer, m *modelfile.Model, p *modelfile.Prediction) error {
	j := predictionJSON{ModelFile: m.Spec.Name, Task: p.Task, Target: m.File.Target, Rows: p.Rows(),
		RowNames: p.RowNames, Classes: p.Classes}
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
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
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
