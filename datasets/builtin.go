package datasets

import (
	"bytes"
	"embed"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// The built-in sets are the classic scikit-learn toy sets as CSV (header row,
// target last), embedded so that the binary needs no files.
//
//go:embed builtin/*.csv
var builtinFS embed.FS

// builtinSet describes an embedded set. Rows and features are written down so
// that Catalog never parses; TestBuiltinShapes checks them against the files.
type builtinSet struct {
	name     string
	summary  string
	rows     int
	features int // columns other than the target
	task     Task

	once  sync.Once
	table *Table
	err   error
}

var builtins = []*builtinSet{
	{name: "iris", rows: 150, features: 4, task: Classification,
		summary: "Fisher's irises: 4 flower measurements (cm), 3 species of 50"},
	{name: "wine", rows: 178, features: 13, task: Classification,
		summary: "Italian wines: 13 chemical measurements, 3 cultivars (59/71/48)"},
	{name: "breast_cancer", rows: 569, features: 30, task: Classification,
		summary: "Wisconsin diagnostic breast cancer: 30 cell-nucleus features, 212 malignant / 357 benign"},
	{name: "digits", rows: 1797, features: 64, task: Classification,
		summary: "8x8 handwritten digits (UCI optdigits): 64 pixel intensities 0-16, digits 0-9"},
	{name: "diabetes", rows: 442, features: 10, task: Regression,
		summary: "diabetes: disease progression after one year from 10 baseline measurements (unscaled)"},
}

func findBuiltin(name string) *builtinSet {
	for _, b := range builtins {
		if b.name == name {
			return b
		}
	}
	return nil
}

func builtinNames() []string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.name
	}
	return names
}

// builtinSource is a built-in's provenance, as its table records it.
func builtinSource(name string) string { return "builtin:" + name }

// load parses the embedded CSV once and returns a deep copy, so that callers
// may change their table freely.
func (b *builtinSet) load() (*Table, error) {
	b.once.Do(func() {
		raw, err := builtinFS.ReadFile("builtin/" + b.name + ".csv")
		if err != nil {
			b.err = fmt.Errorf("built-in %s: %w", b.name, err)
			return
		}
		t, err := ReadDelimited(bytes.NewReader(raw), b.name+".csv", ',')
		if err != nil {
			b.err = fmt.Errorf("built-in %s: %w", b.name, err)
			return
		}
		t.Name = b.name
		t.Source = builtinSource(b.name)
		b.table = t
	})
	if b.err != nil {
		return nil, b.err
	}
	return copyTable(b.table), nil
}

func copyTable(t *Table) *Table {
	out := *t
	out.Columns = make([]Column, len(t.Columns))
	for i, c := range t.Columns {
		c.Levels = append([]string(nil), c.Levels...)
		out.Columns[i] = c
	}
	out.Data = mat.DenseCopyOf(t.Data)
	return &out
}
