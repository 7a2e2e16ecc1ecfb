package tui

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
)

// builtinColumn is column name of a built-in set.
func builtinColumn(t *testing.T, set, name string) []float64 {
	t.Helper()
	tb, err := datasets.Open(set)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range d.Features {
		if c.Name == name {
			return mat.Col(nil, j, d.X)
		}
	}
	t.Fatalf("%s has no column %q", set, name)
	return nil
}

// checkBins: the counts sum to the values and no bin inside the range is
// empty when every bin's values occur.
func checkBins(t *testing.T, what string, col []float64, b kit.Binning, noGaps bool) {
	t.Helper()
	counts := data.FirstClass(b.Count(col, nil, 1))
	sum := 0.0
	for i, c := range counts {
		sum += c
		if noGaps && c == 0 {
			t.Errorf("%s: bin %d (%s) of %d is empty: %v", what, i, b.Label(i), b.K, counts)
		}
	}
	if int(sum) != len(col) {
		t.Errorf("%s: counts sum to %v, want %d", what, sum, len(col))
	}
}

// Whole-number columns got 36 equal bins, most of them empty
// between the values (a comb). They get a bin per value, or bins a whole
// number of values wide; other columns get numpy's "auto" bins.
func TestChooseBins(t *testing.T) {
	t.Parallel()
	count := make([]float64, 150) // a 0..10 count column
	for i := range count {
		count[i] = float64(i * 7 % 11)
	}
	for _, tc := range []struct {
		what    string
		col     []float64
		k       int
		perUnit bool
	}{
		{"diabetes sex", builtinColumn(t, "diabetes", "sex"), 2, true},
		{"0..10 count", count, 11, true},
		{"digits px4_4", builtinColumn(t, "digits", "px4_4"), 17, true},
	} {
		b := kit.ChooseBins(tc.col, 40)
		if b.K != tc.k || b.PerUnit != tc.perUnit {
			t.Errorf("%s: %d bins (a bin per value %v), want %d (%v)", tc.what, b.K, b.PerUnit, tc.k, tc.perUnit)
		}
		checkBins(t, tc.what, tc.col, b, true)
	}
	// A range wider than the bins allowed: bins a whole number wide.
	age := builtinColumn(t, "diabetes", "age") // 19..79
	b := kit.ChooseBins(age, 20)
	w := (b.Hi - b.Lo) / float64(b.K)
	if b.K > 20 || !b.Integer || w != float64(int(w)) || b.Edge(0) != 18.5 {
		t.Errorf("diabetes age in at most 20 bins: %d bins of width %v from %v", b.K, w, b.Edge(0))
	}
	checkBins(t, "diabetes age", age, b, false)
	// Other columns: as many bins as numpy's "auto", e.g.
	//   python3 -c "import numpy as np, csv; r = list(csv.DictReader(open('datasets/builtin/iris.csv')));
	//     print(len(np.histogram_bin_edges([float(x['sepal_length_cm']) for x in r], 'auto')) - 1)"
	// gives 9 (numpy 1.24).
	for _, tc := range []struct {
		set, col string
		k        int
	}{
		{"iris", "sepal_length_cm", 9},
		{"diabetes", "bmi", 16},
		{"wine", "alcohol", 9},
	} {
		col := builtinColumn(t, tc.set, tc.col)
		b := kit.ChooseBins(col, 40)
		if b.K != tc.k || b.Integer {
			t.Errorf("%s %s: %d bins (integer %v), numpy's auto gives %d", tc.set, tc.col, b.K, b.Integer, tc.k)
		}
		checkBins(t, tc.set+" "+tc.col, col, b, false)
		if b := kit.ChooseBins(col, 4); b.K != 4 {
			t.Errorf("%s %s: %d bins, want the 4 allowed", tc.set, tc.col, b.K)
		}
	}
}

// barBlock is the histogram's bars below its header, from the header's
// column on: the lines up to the axis.
func barBlock(t *testing.T, v, header string) []string {
	t.Helper()
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		at := strings.Index(l, header)
		if at < 0 {
			continue
		}
		col := len([]rune(l[:at]))
		var out []string
		for _, b := range lines[i+1:] {
			r := []rune(b)
			if len(r) <= col || strings.ContainsAny(string(r[col:]), "0123456789") {
				break
			}
			out = append(out, string(r[col:]))
		}
		return out
	}
	t.Fatalf("no histogram headed %q:\n%s", header, v)
	return nil
}

// The histogram of diabetes' sex (1 or 2) draws two bars side by side,
// labelled 1 and 2, with no empty bins between them.
func TestIntegerHistogramHasNoComb(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "diabetes"}, 120, 40)
	hs.previewTab(data.PreviewHist)
	hs.press("down")
	v := hs.View()
	block := barBlock(t, v, "sex by progression")
	filled := map[int]bool{}
	first, last := 1<<30, -1
	for _, l := range block {
		for x, r := range []rune(l) {
			if strings.ContainsRune("█▓▒░▚▞▙▟", r) {
				filled[x] = true
				first, last = min(first, x), max(last, x)
			}
		}
	}
	if last < 0 {
		t.Fatalf("no bars:\n%s", v)
	}
	gap := 0
	for x := first; x <= last; x++ {
		if filled[x] {
			gap = 0
			continue
		}
		if gap++; gap > 1 {
			t.Fatalf("empty bins between the bars at column %d:\n%s", x, strings.Join(block, "\n"))
		}
	}
}

// Nominal columns were left out of the histograms. They show a
// bar per level with its rows, most frequent first, the rest counted.
func TestNominalHistogram(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString("@relation shop\n@attribute colour {red,green,blue,grey,black,white,pink,teal,gold,navy,plum,rust}\n@attribute price numeric\n@attribute sold {yes,no}\n@data\n")
	levels := []string{"red", "green", "blue", "grey", "black", "white", "pink", "teal", "gold", "navy", "plum", "rust"}
	for i := range 120 {
		l := levels[0] // red 60 rows, green 30, the rest 30 spread
		switch {
		case i >= 90:
			l = levels[2+i%10]
		case i >= 60:
			l = levels[1]
		}
		fmt.Fprintf(&sb, "%s,%d,%s\n", l, i%17, []string{"yes", "no"}[i%2])
	}
	hs := newHarness(t, Options{Data: writeFile(t, "shop.arff", sb.String())}, 100, 24)
	hs.previewTab(data.PreviewHist)
	v := hs.View()
	mustContain(t, v, "colour · rows per level, most frequent first", "12 levels")
	lines := strings.Split(v, "\n")
	red, green := -1, -1
	for i, l := range lines {
		switch {
		case strings.Contains(l, "red") && strings.Contains(l, "60"):
			red = i
		case strings.Contains(l, "green") && strings.Contains(l, "30"):
			green = i
		}
	}
	if red < 0 || green < 0 || green < red {
		t.Errorf("want red (60) above green (30):\n%s", v)
	}
	if !strings.Contains(v, "more (") {
		t.Errorf("12 levels in a short pane: want the rest counted as +N more:\n%s", v)
	}
}

// The data's principal plane of mixed columns left the nominal
// ones out without a word. The title says so.
func TestPrincipalPlaneSaysNominalLeftOut(t *testing.T) {
	t.Parallel()
	text := "@relation mixed\n@attribute a numeric\n@attribute b numeric\n@attribute c numeric\n@attribute colour {red,blue}\n@attribute y {yes,no}\n@data\n"
	for i := range 30 {
		text += fmt.Sprintf("%d,%d,%d,%s,%s\n", i, i*i%7, i%5, []string{"red", "blue"}[i%2], []string{"yes", "no"}[i%3/2])
	}
	hs := newHarness(t, Options{Data: writeFile(t, "mixed.arff", text)}, 120, 40)
	hs.previewTab(data.PreviewPlot)
	mustContain(t, hs.View(), "first two principal directions", "1 nominal column left out")
}
