package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// Ranking ranks the models over several datasets by one metric (Demšar
// 2006, "Statistical comparisons of classifiers over multiple data sets"):
// average ranks (1 the best), the Friedman test that they differ, and the
// Nemenyi critical difference two average ranks must exceed to differ.
type Ranking struct {
	Metric   string
	Datasets []string  // ranked: every model has a score on them
	Skipped  []string  // not ranked: some model has no score there
	Ranks    []float64 // average rank of each model, as Plan.Models
	ChiSq    float64   // Friedman's statistic
	FF       float64   // Iman and Davenport's F form of it
	P        float64   // of FF, on (k-1, (k-1)(N-1)) degrees of freedom
	CD       float64   // Nemenyi critical difference; NaN beyond len(qAlpha05)+1 models
}

// FewDatasets is the number of datasets below which the Friedman test's
// χ² and F approximations are poor (Demšar 2006, §3.2.2: "for a small
// number of data sets"), and its p-value only a rough guide.
const FewDatasets = 5

// SmallSample says, for a ranking over fewer than FewDatasets datasets,
// why its p-value is rough; "" otherwise.
func (rk Ranking) SmallSample() string {
	if n := len(rk.Datasets); n >= 2 && n < FewDatasets {
		return fmt.Sprintf("with %s (fewer than %d) the χ² and F approximations behind p are poor: a rough guide, not a test",
			numfmt.Count(n, "dataset"), FewDatasets)
	}
	return ""
}

// qAlpha05 are the Nemenyi test's critical values q_0.05 for 2..10 models
// (Demšar 2006, Table 5a: the Studentized range statistic divided by √2).
var qAlpha05 = []float64{1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164}

// CriticalDifference is the Nemenyi critical difference at alpha 0.05 for
// k models ranked over n datasets: q_α·√(k(k+1)/(6n)); NaN when k is
// outside 2..10.
func CriticalDifference(k, n int) float64 {
	if k < 2 || k-2 >= len(qAlpha05) || n < 1 {
		return math.NaN()
	}
	return qAlpha05[k-2] * math.Sqrt(float64(k*(k+1))/(6*float64(n)))
}

// Friedman tests whether k models with average ranks ranks over n datasets
// differ: χ²_F = 12n/(k(k+1))·(Σ R² − k(k+1)²/4), its F form
// F_F = (n−1)χ²_F/(n(k−1)−χ²_F) and the p-value of F_F; when every
// dataset ranks the models alike F_F is unbounded (NaN) and p is χ²_F's on
// k−1 degrees of freedom.
func Friedman(ranks []float64, n int) (chi, ff, p float64) {
	k := float64(len(ranks))
	var sum float64
	for _, r := range ranks {
		sum += r * r
	}
	N := float64(n)
	chi = 12 * N / (k * (k + 1)) * (sum - k*(k+1)*(k+1)/4)
	if n < 2 || k < 2 {
		return chi, math.NaN(), math.NaN()
	}
	den := N*(k-1) - chi
	if den <= 0 { // every dataset ranks the models alike: F_F is unbounded, χ²_F is not
		return chi, math.NaN(), 1 - distuv.ChiSquared{K: k - 1}.CDF(chi)
	}
	ff = (N - 1) * chi / den
	p = 1 - distuv.F{D1: k - 1, D2: (k - 1) * (N - 1)}.CDF(ff)
	return chi, ff, p
}

// rankRow ranks values (1 the best in metric's direction), ties sharing the
// average of their places.
func rankRow(metric string, v []float64) []float64 {
	info := metrics.Lookup(metric)
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return info.Compare(v[idx[a]], v[idx[b]]) > 0 })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && info.Compare(v[idx[j+1]], v[idx[i]]) == 0 {
			j++
		}
		for t := i; t <= j; t++ {
			out[idx[t]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return out
}

// Rank ranks the models by their mean score of metric on each dataset where
// every model has one.
func (o *Outcome) Rank(metric string) Ranking {
	k := len(o.Plan.Models)
	rk := Ranking{Metric: metric, Ranks: make([]float64, k)}
	for d, ds := range o.Plan.Datasets {
		means := make([]float64, k)
		ok := true
		for m := range means {
			means[m] = o.Stat(d, m, metric).Mean
			ok = ok && !math.IsNaN(means[m])
		}
		if !ok {
			rk.Skipped = append(rk.Skipped, ds.Name)
			continue
		}
		rk.Datasets = append(rk.Datasets, ds.Name)
		for m, r := range rankRow(metric, means) {
			rk.Ranks[m] += r
		}
	}
	n := len(rk.Datasets)
	for m := range rk.Ranks {
		rk.Ranks[m] /= float64(max(n, 1))
	}
	rk.ChiSq, rk.FF, rk.P = Friedman(rk.Ranks, n)
	rk.CD = CriticalDifference(k, n)
	return rk
}

// Groups are the runs of models, in order of average rank, whose ranks lie
// within the critical difference of each other (the bars of a CD diagram):
// maximal sets only, each of at least two models.
func (rk Ranking) Groups() [][]int {
	order := rk.Order()
	var groups [][]int
	last := -1
	for i := range order {
		j := i
		for j+1 < len(order) && rk.Ranks[order[j+1]]-rk.Ranks[order[i]] < rk.CD {
			j++
		}
		if j > i && j > last {
			groups = append(groups, append([]int(nil), order[i:j+1]...))
			last = j
		}
	}
	return groups
}

// Order lists the models from the best average rank.
func (rk Ranking) Order() []int {
	order := make([]int, len(rk.Ranks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rk.Ranks[order[a]] < rk.Ranks[order[b]] })
	return order
}

// Diagram draws the ranking as text, width columns wide: an axis of ranks
// 1..k, each model at its average rank, the critical difference as a bar,
// and a bar under each group of models that do not differ significantly.
func (rk Ranking) Diagram(labels []string, width int) string {
	k := len(rk.Ranks)
	if k < 2 {
		return ""
	}
	name := len("rank")
	for _, l := range labels {
		name = max(name, len([]rune(l)))
	}
	span := max(width-name-10, 2*(k-1))
	col := func(r float64) int { return int(math.Round((r - 1) / float64(k-1) * float64(span))) }
	var b strings.Builder
	axis := []rune(strings.Repeat(" ", span+4))
	line := []rune(strings.Repeat("─", span+1))
	for r := 1; r <= k; r++ {
		s := fmt.Sprint(r)
		copy(axis[col(float64(r)):], []rune(s))
		line[col(float64(r))] = '┼'
	}
	line[0], line[span] = '├', '┤'
	fmt.Fprintf(&b, "%-*s  %s\n%-*s  %s\n", name, "rank", strings.TrimRight(string(axis), " "), name, "", string(line))
	if !math.IsNaN(rk.CD) {
		w := min(col(1+rk.CD), span)
		fmt.Fprintf(&b, "%-*s  %s%s CD %.2f\n", name, "", "├"+strings.Repeat("─", max(w-1, 0)), "┤", rk.CD)
	}
	for _, m := range rk.Order() {
		row := []rune(strings.Repeat(" ", span+1))
		row[col(rk.Ranks[m])] = '●'
		fmt.Fprintf(&b, "%-*s  %s  %.2f\n", name, labels[m], string(row), rk.Ranks[m])
	}
	for _, g := range rk.Groups() {
		row := []rune(strings.Repeat(" ", span+1))
		a, z := col(rk.Ranks[g[0]]), col(rk.Ranks[g[len(g)-1]])
		for i := a; i <= z; i++ {
			row[i] = '━'
		}
		var names []string
		for _, m := range g {
			names = append(names, labels[m])
		}
		fmt.Fprintf(&b, "%-*s  %s  no difference: %s\n", name, "", strings.TrimRight(string(row), " "), strings.Join(names, ", "))
	}
	return b.String()
}
