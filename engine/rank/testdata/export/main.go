// Command export writes tealab's built-in sets as ARFF files for Weka and
// CSV files for scikit-learn, every number with all its digits, the class
// last: the inputs of ../gen.sh, which made the references beside it.
//
//	go run ./engine/rank/testdata/export DIR
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: export DIR")
		os.Exit(2)
	}
	for _, name := range []string{"breast_cancer", "iris", "wine", "diabetes"} {
		if err := export(name, os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := exportMissing(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := split(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// split writes the rows of breast_cancer's default hold-out (eval.Plan,
// seed 0) as JSON, for scikit-learn to fit and permute on the same rows.
func split(dir string) error {
	t, err := datasets.Open("breast_cancer")
	if err != nil {
		return err
	}
	d, err := t.Dataset("", datasets.Auto)
	if err != nil {
		return err
	}
	folds, _, err := eval.Plan(d, eval.Options{})
	if err != nil {
		return err
	}
	b, err := json.Marshal(folds[0])
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "breast_cancer_split.json"), append(b, '\n'), 0o644)
}

func num(v float64) string {
	if math.IsNaN(v) {
		return "?"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func export(name, dir string) error {
	t, err := datasets.Open(name)
	if err != nil {
		return err
	}
	d, err := t.Dataset("", datasets.Auto)
	if err != nil {
		return err
	}
	return write(d, name, dir)
}

// IrisMissing is iris with missing values and nominal columns, for the
// evaluators' handling of both: every 7th cell (counting (i+j) mod 7) of
// the numbers blanked, a nominal "petal" (short, mid, long by petal
// length, blank every 11th row) and a constant nominal "same".
func IrisMissing() (*datasets.Dataset, error) {
	t, err := datasets.Open("iris")
	if err != nil {
		return nil, err
	}
	d, err := t.Dataset("", datasets.Auto)
	if err != nil {
		return nil, err
	}
	n, p := d.X.Dims()
	X := mat.NewDense(n, p+2, nil)
	for i := range n {
		for j := range p {
			v := d.X.At(i, j)
			if (i+j)%7 == 0 {
				v = math.NaN()
			}
			X.Set(i, j, v)
		}
		pl := d.Y[i] // a nominal copy of the class, blurred: short, mid, long
		if i%5 == 0 {
			pl = float64((int(pl) + 1) % 3)
		}
		if i%11 == 0 {
			pl = math.NaN()
		}
		X.Set(i, p, pl)
	}
	d.X = X
	d.Features = append(d.Features,
		datasets.Column{Name: "petal", Kind: datasets.Nominal, Levels: []string{"short", "mid", "long"}},
		datasets.Column{Name: "same", Kind: datasets.Nominal, Levels: []string{"one"}})
	return d, nil
}

func exportMissing(dir string) error {
	d, err := IrisMissing()
	if err != nil {
		return err
	}
	return write(d, "iris_missing", dir)
}

func write(d *datasets.Dataset, name, dir string) error {
	var arff, csv strings.Builder
	fmt.Fprintf(&arff, "@relation %s\n\n", name)
	for _, c := range d.Features {
		if c.Kind == datasets.Nominal {
			fmt.Fprintf(&arff, "@attribute %s {%s}\n", c.Name, strings.Join(c.Levels, ","))
		} else {
			fmt.Fprintf(&arff, "@attribute %s numeric\n", c.Name)
		}
		csv.WriteString(c.Name + ",")
	}
	regression := d.Task == datasets.Regression
	if regression {
		fmt.Fprintf(&arff, "@attribute target numeric\n\n@data\n")
	} else {
		fmt.Fprintf(&arff, "@attribute class {%s}\n\n@data\n", strings.Join(d.Classes, ","))
	}
	csv.WriteString("class\n")
	n, p := d.X.Dims()
	for i := range n {
		var row []string
		for j := range p {
			v := d.X.At(i, j)
			if d.Features[j].Kind == datasets.Nominal && !math.IsNaN(v) {
				row = append(row, d.Features[j].Levels[int(v)])
			} else {
				row = append(row, num(v))
			}
		}
		if regression {
			arff.WriteString(strings.Join(row, ",") + "," + num(d.Y[i]) + "\n")
			csv.WriteString(strings.Join(row, ",") + "," + num(d.Y[i]) + "\n")
			continue
		}
		arff.WriteString(strings.Join(row, ",") + "," + d.Classes[int(d.Y[i])] + "\n")
		csv.WriteString(strings.Join(row, ",") + "," + strconv.Itoa(int(d.Y[i])) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name+".arff"), []byte(arff.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".csv"), []byte(csv.String()), 0o644)
}
