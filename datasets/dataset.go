// Package datasets holds tabular data for tealab: the Table and Dataset types,
// loaders for CSV, TSV and ARFF files, the built-in sets, seeded synthetic
// generators, fitted preprocessing transforms, and reproducible splits.
//
// Rules that hold across the package:
//   - Matrices are rows-as-observations *mat.Dense.
//   - A missing value is NaN in the matrix and is counted in Column.Missing.
//   - A nominal value is stored as the index of its level in Column.Levels.
//   - Randomness comes from an explicit seed (math/rand/v2 PCG), never a
//     global source: the same seed gives the same data and the same folds.
//   - Data-dependent failures are returned as errors that name the file, line
//     and column at fault; nothing here panics on bad input.
//
// This package never imports the engine.
package datasets

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tealab/tealab/numfmt"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Kind is the kind of a column's values.
type Kind int

const (
	// Numeric columns hold real numbers.
	Numeric Kind = iota
	// Nominal columns hold one of a fixed set of levels, stored as level indices.
	Nominal
)

func (k Kind) String() string {
	if k == Nominal {
		return "nominal"
	}
	return "numeric"
}

// Column describes one column of a Table.
type Column struct {
	Name    string
	Kind    Kind
	Levels  []string // nominal levels; a value v stands for Levels[int(v)]
	Missing int      // number of missing (NaN) values
	// Unnamed: the file's header gave the column no name (it is named colN).
	Unnamed bool
}

// Task is what a dataset asks a model to learn; it follows from the target.
type Task int

const (
	// Classification: a nominal (or small-integer) target.
	Classification Task = iota
	// Regression: a numeric target.
	Regression
	// Clustering: group the rows; no target is learned (a class column,
	// when there is one, only scores the grouping).
	Clustering
	// Reduction: describe the rows in fewer dimensions; no target is learned.
	Reduction
)

func (t Task) String() string {
	switch t {
	case Classification:
		return "classification"
	case Regression:
		return "regression"
	case Reduction:
		return "reduction"
	default:
		return "clustering"
	}
}

// Supervised says whether the task learns a target.
func (t Task) Supervised() bool { return t == Classification || t == Regression }

// ParseTask reads a task name as the CLI's --task flag spells it.
func ParseTask(s string) (Task, error) {
	switch s {
	case "classification", "classify", "clf":
		return Classification, nil
	case "regression", "regress", "reg":
		return Regression, nil
	case "clustering", "cluster":
		return Clustering, nil
	case "reduction", "reduce", "dimensionality reduction":
		return Reduction, nil
	}
	return 0, fmt.Errorf("unknown task %q (valid: classification, regression, clustering, reduction)", s)
}

// Table is data as loaded: every column, no target chosen yet.
type Table struct {
	Name   string // short name, e.g. "iris" or the file's base name
	Source string // provenance: the file path, or generator, knobs and seed
	// SHA256 is the hex SHA-256 of the bytes read (compressed or not) when
	// the table was read from a file or a stream; "" for a built-in or a
	// generator. It is taken while reading, so that fingerprinting the data
	// never opens them a second time (a named pipe can be read only once).
	SHA256  string
	Columns []Column   // one per column of Data
	Data    *mat.Dense // rows are observations
	// RowNames label the rows when the file had them: an unnamed first
	// column of distinct values, as R's write.csv and pandas' to_csv write
	// them (see ReadDelimited). They are not a column; nil when there are none.
	RowNames []string
}

// Rows is the number of observations.
func (t *Table) Rows() int {
	r, _ := t.Data.Dims()
	return r
}

// ColumnIndex finds a column by name; -1 if there is none.
func (t *Table) ColumnIndex(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// NoTarget, given as the target name, makes a Dataset with no target (clustering).
const NoTarget = "-"

// Auto, given as a task, infers the task from the target column.
const Auto Task = -1

// maxIntegerClasses is the largest number of distinct integer values that make
// a numeric target a classification target when the task is inferred.
const maxIntegerClasses = 20

// Dataset is a Table with the target chosen: features X, target Y, and a task.
type Dataset struct {
	Name     string
	Source   string
	SHA256   string     // Table.SHA256: the bytes read, when from a file or stream
	Features []Column   // the feature columns, in the order of X's columns
	X        *mat.Dense // n x len(Features); NaN is missing
	Target   *Column    // nil when there is no target
	Y        []float64  // class index (classification) or value (regression); nil for clustering
	Classes  []string   // class names, index = class code; nil unless classification
	Task     Task
	Dropped  int      // rows dropped because their target was missing
	RowNames []string // the rows' names (Table.RowNames); nil when there are none
	// RowNumbers are the rows' 0-based places in the table they were read
	// from, when rows without a target were dropped (Table.Dataset,
	// Align): what a person finds them by in the file. Nil when each
	// row's place is its index here.
	RowNumbers []int
}

// Release drops the feature values, keeping X's shape (Rows, the columns)
// and everything else: for a caller that has copied the rows it needs into
// parts of its own and needs the table no more, so that the table and its
// parts are not held at once. Reading X's values afterwards panics.
func (d *Dataset) Release() {
	r, c := d.X.Dims()
	var empty mat.Dense
	empty.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c})
	d.X = &empty
}

// Rows is the number of observations.
func (d *Dataset) Rows() int {
	r, _ := d.X.Dims()
	return r
}

// FeatureNames lists the feature column names.
func (d *Dataset) FeatureNames() []string {
	names := make([]string, len(d.Features))
	for i, c := range d.Features {
		names[i] = c.Name
	}
	return names
}

// ClassCounts counts the rows of each class (classification only).
func (d *Dataset) ClassCounts() []int {
	counts := make([]int, len(d.Classes))
	for _, v := range d.Y {
		counts[int(v)]++
	}
	return counts
}

// Dataset chooses the target and the task. target "" means the last column,
// NoTarget means none (clustering, or reduction when asked for). With
// task Clustering or Reduction a target is kept as known classes that score
// the result, never learned from. task Auto infers it: a nominal target is
// classification; a numeric target whose values are all integers with at most
// 20 distinct values is classification (classes named by value); any other
// numeric target is regression. Rows whose target is missing are dropped; an
// infinite target is an error (infinite features are the preprocessing's to reject).
//
// The Dataset's X is a view of the table's matrix when it can be (the target
// is the last column, or there is none, and no row was dropped), so that a
// large table is not held twice; neither is modified after loading.
func (t *Table) Dataset(target string, task Task) (*Dataset, error) {
	n, p := t.Data.Dims()
	if p == 0 {
		return nil, fmt.Errorf("%s: no columns", t.Name)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no data rows", t.Name)
	}
	if t.namesRowNames(target) { // asked for by name: the row names are the target
		return t.RowNamesAsColumn().Dataset(target, task)
	}
	ti := -1
	switch target {
	case NoTarget:
	case "":
		ti = p - 1
	default:
		if ti = t.ColumnIndex(target); ti < 0 {
			return nil, fmt.Errorf("%s: no target column %q (columns: %s)", t.Name, target, columnList(t.Columns))
		}
	}
	if ti < 0 {
		if task.Supervised() {
			return nil, fmt.Errorf("%s: %s needs a target column", t.Name, task)
		}
		if task == Auto {
			task = Clustering
		}
		return &Dataset{Name: t.Name, Source: t.Source, SHA256: t.SHA256, Features: append([]Column(nil), t.Columns...),
			X: t.Data, Task: task, RowNames: t.RowNames}, nil
	}
	if p == 1 {
		return nil, fmt.Errorf("%s: the target %q is the only column; there are no features", t.Name, t.Columns[ti].Name)
	}
	tc := t.Columns[ti]
	missing := 0
	for i := 0; i < n; i++ {
		v := t.Data.At(i, ti)
		if math.IsInf(v, 0) { // a Table built by code; the loaders reject these
			return nil, fmt.Errorf("%s: target column %q: %v in row %d is not a finite number", t.Name, tc.Name, v, i+1)
		}
		if math.IsNaN(v) {
			missing++
		}
	}
	if missing == n {
		return nil, fmt.Errorf("%s: target column %q has no values", t.Name, tc.Name)
	}
	var keep []int // the rows kept; nil when all are
	if missing > 0 {
		keep = make([]int, 0, n-missing)
		for i := 0; i < n; i++ {
			if !math.IsNaN(t.Data.At(i, ti)) {
				keep = append(keep, i)
			}
		}
	}
	feats := make([]Column, 0, p-1)
	for j, c := range t.Columns {
		if j != ti {
			feats = append(feats, c)
		}
	}
	y := make([]float64, n-missing)
	var X *mat.Dense
	if ti == p-1 && keep == nil {
		// The usual case: the features are a view of the table, not a copy.
		X = t.Data.Slice(0, n, 0, p-1).(*mat.Dense)
		for i := range y {
			y[i] = t.Data.At(i, ti)
		}
	} else {
		X = t.compact(keep, ti, y)
	}
	if keep != nil {
		// Missing counts of the features must describe the rows kept.
		for c := range feats {
			feats[c].Missing = 0
			for r := range keep {
				if math.IsNaN(X.At(r, c)) {
					feats[c].Missing++
				}
			}
		}
	}
	d := &Dataset{Name: t.Name, Source: t.Source, SHA256: t.SHA256, Features: feats, X: X, Y: y, Dropped: missing, RowNames: t.RowNames}
	if keep != nil {
		d.RowNames = gather(t.RowNames, keep)
		d.RowNumbers = keep
	}
	tcCopy := tc
	tcCopy.Missing = 0
	d.Target = &tcCopy

	if task == Auto {
		task = inferTask(tc, y)
	}
	d.Task = task
	switch task {
	case Clustering, Reduction:
		// The target is not learned: its classes only score the result.
		if inferTask(tc, y) != Classification {
			return nil, fmt.Errorf("%s: %s scores against known classes, and target %q is numeric with many values; use the target %q for none",
				t.Name, task, tc.Name, NoTarget)
		}
		if err := d.encodeClasses(tc); err != nil {
			return nil, err
		}
	case Regression:
		if tc.Kind == Nominal {
			return nil, fmt.Errorf("%s: target %q is nominal (%d levels); regression needs a numeric target", t.Name, tc.Name, len(tc.Levels))
		}
	case Classification:
		if err := d.encodeClasses(tc); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// compact copies the rows keep (nil: all) of the table without column ti
// into a new matrix, and the target values into y.
func (t *Table) compact(keep []int, ti int, y []float64) *mat.Dense {
	_, p := t.Data.Dims()
	X := mat.NewDense(len(y), p-1, nil)
	for r := range y {
		i := r
		if keep != nil {
			i = keep[r]
		}
		row := t.Data.RawRowView(i)
		y[r] = row[ti]
		out := X.RawRowView(r)
		copy(out, row[:ti])
		copy(out[ti:], row[ti+1:])
	}
	return X
}

// Trainable says why a model cannot learn the target, nil when it can: a
// target with one value has nothing to learn, whichever the task.
func (d *Dataset) Trainable() error {
	if d.Target == nil || len(d.Y) == 0 {
		return nil
	}
	for _, v := range d.Y[1:] {
		if v != d.Y[0] {
			return nil
		}
	}
	if !d.Task.Supervised() {
		return nil // scored against one class: the scores say so
	}
	value := numfmt.Sig(d.Y[0], 6)
	if len(d.Classes) == 1 { // Y holds class codes
		value = d.Classes[0]
		if d.Target.Kind == Nominal {
			value = strconv.Quote(value)
		}
	}
	return fmt.Errorf("%s: target %q is %s in every row: there is nothing to learn (classification needs two classes, regression a target that varies)", d.Name, d.Target.Name, value)
}

func inferTask(tc Column, y []float64) Task {
	if tc.Kind == Nominal {
		return Classification
	}
	seen := map[float64]bool{}
	for _, v := range y {
		if v != math.Trunc(v) {
			return Regression
		}
		seen[v] = true
		if len(seen) > maxIntegerClasses {
			return Regression
		}
	}
	return Classification
}

// encodeClasses turns the target into class codes 0..k-1 and names the
// classes. One class is allowed here (describing data is not training it);
// Trainable refuses it.
// Nominal levels keep their declared order (levels never seen are dropped);
// numeric values are sorted and named by value.
func (d *Dataset) encodeClasses(tc Column) error {
	used := map[float64]bool{}
	for _, v := range d.Y {
		used[v] = true
	}
	vals := make([]float64, 0, len(used))
	for v := range used {
		vals = append(vals, v)
	}
	sort.Float64s(vals)
	if tc.Kind != Nominal {
		// Forced classification of a measured target: every distinct value
		// would be a class.
		for _, v := range vals {
			if v != math.Trunc(v) {
				return fmt.Errorf("%s: target %q is numeric with %d distinct values (%s is not a class code): classification would make a class of each; use regression, or bin the target first",
					d.Name, tc.Name, len(vals), numfmt.Sig(v, 6))
			}
		}
	}
	code := make(map[float64]float64, len(vals))
	d.Classes = make([]string, len(vals))
	for i, v := range vals {
		code[v] = float64(i)
		d.Classes[i] = className(tc, v)
	}
	for i, v := range d.Y {
		d.Y[i] = code[v]
	}
	return nil
}

// className is value v of column tc as the file wrote it: its level's name,
// or the number in its shortest form. (v >= 0, not int(v) >= 0: int(NaN)
// differs between architectures.)
func className(tc Column, v float64) string {
	if tc.Kind == Nominal && v >= 0 && int(v) < len(tc.Levels) {
		return tc.Levels[int(v)]
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func columnList(cols []Column) string {
	s := ""
	for i, c := range cols {
		if i > 0 {
			s += ", "
		}
		if i == 12 && len(cols) > 14 {
			return s + fmt.Sprintf("... %d more", len(cols)-12)
		}
		s += quoteIfNeeded(c.Name)
	}
	return s
}

// quoteIfNeeded quotes a name that has spaces, commas, quotes or control
// characters, so that a list of names stays readable and on one line.
func quoteIfNeeded(name string) string {
	if name == "" || strings.ContainsAny(name, " ,\"'") || strconv.Quote(name) != `"`+name+`"` {
		return strconv.Quote(name)
	}
	return name
}

// Subset returns the rows idx of the dataset as a new Dataset sharing no memory
// with d (Features, Classes and Target are shared read-only descriptions).
func (d *Dataset) Subset(idx []int) *Dataset {
	out := *d
	out.X = GatherRows(d.X, idx)
	out.RowNames = gather(d.RowNames, idx)
	out.RowNumbers = gather(d.RowNumbers, idx)
	if d.Y != nil {
		out.Y = make([]float64, len(idx))
		for r, i := range idx {
			out.Y[r] = d.Y[i]
		}
	}
	return &out
}

// Drop returns the table without the named columns (id columns, leaks),
// sharing no values with t (its row names, read-only, are shared). Dropping a column that does not exist, or every
// column, is an error that lists the columns. Naming the row names
// (RowNamesColumn) drops them too.
func (t *Table) Drop(names ...string) (*Table, error) {
	if len(names) == 0 {
		return t, nil
	}
	columns, rowNames, listed := names, t.RowNames, t.Columns
	if slices.ContainsFunc(names, t.namesRowNames) { // not read back as a column only to go
		columns = slices.DeleteFunc(slices.Clone(names), t.namesRowNames)
		rowNames = nil
		listed = append([]Column{{Name: RowNamesColumn}}, t.Columns...)
	}
	gone := map[int]bool{}
	for _, name := range columns {
		j := t.ColumnIndex(name)
		if j < 0 {
			return nil, fmt.Errorf("%s: cannot drop column %q: there is none (columns: %s)", t.Name, name, columnList(listed))
		}
		gone[j] = true
	}
	n, p := t.Data.Dims()
	if len(gone) == p {
		return nil, fmt.Errorf("%s: dropping %s leaves no column", t.Name, strings.Join(names, ", "))
	}
	out := &Table{Name: t.Name, Source: t.Source, SHA256: t.SHA256, RowNames: rowNames}
	var keep []int
	for j, c := range t.Columns {
		if !gone[j] {
			keep = append(keep, j)
			out.Columns = append(out.Columns, c)
		}
	}
	out.Data = mat.NewDense(max(n, 1), len(keep), nil)
	if n == 0 {
		out.Data = &mat.Dense{}
	}
	for i := 0; i < n; i++ {
		src, dst := t.Data.RawRowView(i), out.Data.RawRowView(i)
		for k, j := range keep {
			dst[k] = src[j]
		}
	}
	return out, nil
}
