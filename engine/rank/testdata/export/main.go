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

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: export DIR")
		os.Exit(2)
	}
	for _, name := range []string{"breast_cancer", "iris", "wine"} {
		if err := export(name, os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
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
	fmt.Fprintf(&arff, "@attribute class {%s}\n\n@data\n", strings.Join(d.Classes, ","))
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
		arff.WriteString(strings.Join(row, ",") + "," + d.Classes[int(d.Y[i])] + "\n")
		csv.WriteString(strings.Join(row, ",") + "," + strconv.Itoa(int(d.Y[i])) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name+".arff"), []byte(arff.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".csv"), []byte(csv.String()), 0o644)
}
