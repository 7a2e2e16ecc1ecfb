package rank

import (
	"math"

	"github.com/tealab/tealab/datasets"
)

// table is the contingency table of feature j against the classes as
// Weka's InfoGain, GainRatio and ChiSquared evaluators build it: a numeric
// feature discretised by mdlCuts first, then the counts of the rows whose
// value is missing shared out over the values in proportion to the
// values' counts (Weka's missing merge, on by default).
func table(d *datasets.Dataset, j int) [][]float64 {
	col := d.Features[j]
	x := column(d, j)
	k := len(d.Classes)
	var values int
	var code func(v float64) int
	if col.Kind == datasets.Nominal {
		values = len(col.Levels)
		code = func(v float64) int {
			if math.IsNaN(v) {
				return -1
			}
			return int(v)
		}
	} else {
		cuts := datasets.MDLCuts(x, d.Y, k)
		values = len(cuts) + 1
		code = func(v float64) int { return datasets.BinOf(v, cuts) }
	}
	if values == 0 {
		values = 1
	}
	m := make([][]float64, values)
	for i := range m {
		m[i] = make([]float64, k)
	}
	missing := make([]float64, k)
	anyMissing := false
	for i, v := range x {
		c := int(d.Y[i])
		if b := code(v); b >= 0 && b < values {
			m[b][c]++
		} else {
			missing[c]++
			anyMissing = true
		}
	}
	if !anyMissing {
		return m
	}
	// Share the missing rows out: each cell gets the missing rows of its
	// class in proportion to its row's share of the known rows.
	rowSums := make([]float64, values)
	var sum float64
	for i, row := range m {
		for _, v := range row {
			rowSums[i] += v
		}
		sum += rowSums[i]
	}
	if sum <= 0 {
		return m
	}
	for i, row := range m {
		share := rowSums[i] / sum
		for c := range row {
			row[c] += share * missing[c]
		}
	}
	return m
}

// infoGain is H(class) − H(class | value) in bits.
func infoGain(m [][]float64) float64 {
	k := len(m[0])
	cols := make([]float64, k)
	for _, row := range m {
		for c, v := range row {
			cols[c] += v
		}
	}
	return datasets.Entropy(cols) - datasets.CondEntropy(m)
}

// gainRatio is the information gain over the entropy of the values (the
// split information); 0 when the split information is 0.
func gainRatio(m [][]float64) float64 {
	rows := make([]float64, len(m))
	for i, row := range m {
		for _, v := range row {
			rows[i] += v
		}
	}
	split := datasets.Entropy(rows)
	if split <= 1e-6 { // Weka's Utils.eq
		return 0
	}
	return infoGain(m) / split
}

// chiSquared is Pearson's χ² of the table, empty rows and columns left
// out, without Yates' correction (Weka's ChiSquaredAttributeEval).
func chiSquared(m [][]float64) float64 {
	k := len(m[0])
	rows := make([]float64, len(m))
	cols := make([]float64, k)
	var n float64
	for i, row := range m {
		for c, v := range row {
			rows[i] += v
			cols[c] += v
			n += v
		}
	}
	if n == 0 {
		return 0
	}
	var chi float64
	for i, row := range m {
		if rows[i] <= 0 {
			continue
		}
		for c, v := range row {
			if cols[c] <= 0 {
				continue
			}
			e := rows[i] * cols[c] / n
			chi += (v - e) * (v - e) / e
		}
	}
	return chi
}
