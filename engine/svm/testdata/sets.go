// Command sets writes the generated sets engine/svm's reference scripts
// read, so that scikit-learn fits the very rows tealab does: moons.csv,
// circles.csv and sine.csv (tealab's generators at their defaults, seed 1;
// every digit, no header) for sklearn_svm.py and the SMO tests, and
// kridge_sine.csv (the same sine, with a header, to 17 significant digits)
// for kridge_ref.py and the kernel ridge tests. `go generate ./engine/svm`
// runs it from engine/svm.
package main

import (
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
)

func main() {
	for _, g := range []struct {
		name string
		task datasets.Task
	}{{"moons", datasets.Classification}, {"circles", datasets.Classification}, {"sine", datasets.Regression}} {
		d := open(g.name, g.task)
		write(g.name+".csv", "", d, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
		if g.name == "sine" {
			write("kridge_sine.csv", "x,y\n", d, func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) })
		}
	}
}

// open is a generator's set as the tests see it.
func open(name string, task datasets.Task) *datasets.Dataset {
	tab, err := datasets.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	d, err := tab.Dataset("", task)
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// write writes d's rows to testdata/file, the features then the target.
func write(file, header string, d *datasets.Dataset, format func(float64) string) {
	var b strings.Builder
	b.WriteString(header)
	for i := range d.Rows() {
		for _, v := range d.X.RawRowView(i) {
			b.WriteString(format(v) + ",")
		}
		b.WriteString(format(d.Y[i]) + "\n")
	}
	if err := os.WriteFile(filepath.Join("testdata", file), []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
