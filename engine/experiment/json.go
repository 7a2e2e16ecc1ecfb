package experiment

import (
	"github.com/tealab/tealab/numfmt"
)

// Summary is an experiment's results for --json.
type Summary struct {
	Folds     int          `json:"folds"`
	Repeats   int          `json:"repeats"`
	Seed      uint64       `json:"seed"`
	Baseline  string       `json:"baseline"`
	Alpha     float64      `json:"alpha"`
	Cancelled bool         `json:"cancelled,omitempty"`
	Results   []ResultJSON `json:"results"`
	WTL       []WTLJSON    `json:"wins_ties_losses"`
	Ranking   *RankingJSON `json:"ranking,omitempty"`
	Failures  []string     `json:"failures,omitempty"`
}

// ResultJSON is one model on one dataset under one metric.
type ResultJSON struct {
	Dataset string       `json:"dataset"`
	Model   string       `json:"model"`
	Metric  string       `json:"metric"`
	Mean    numfmt.Float `json:"mean"`
	Std     numfmt.Float `json:"std"`
	N       int          `json:"n"`
	Mark    string       `json:"mark,omitempty"` // v, * or empty, as the table marks it
	Verdict string       `json:"verdict"`        // better, worse, tie, baseline or untested
	// The test against the baseline; absent for the baseline itself.
	T  *numfmt.Float `json:"t,omitempty"`
	DF int           `json:"df,omitempty"`
	P  *numfmt.Float `json:"p,omitempty"`
}

// WTLJSON counts a model's wins, ties and losses against the baseline.
type WTLJSON struct {
	Model string `json:"model"`
	Win   int    `json:"win"`
	Tie   int    `json:"tie"`
	Loss  int    `json:"loss"`
}

// RankingJSON is the ranking over datasets.
type RankingJSON struct {
	Metric   string         `json:"metric"`
	Datasets []string       `json:"datasets"`
	Ranks    []numfmt.Float `json:"average_ranks"`
	ChiSq    numfmt.Float   `json:"friedman_chi2"`
	FF       numfmt.Float   `json:"friedman_f"`
	P        numfmt.Float   `json:"friedman_p"`
	CD       numfmt.Float   `json:"critical_difference"`
	// Caveat says why p is rough with few datasets (Ranking.SmallSample).
	Caveat string `json:"caveat,omitempty"`
}

// Summarise collects the columns' results, the W/T/L counts and, over
// several datasets, the ranking.
func (o *Outcome) Summarise(cols []Column) Summary {
	p := o.Plan
	s := Summary{Folds: p.Folds, Repeats: p.Repeats, Seed: p.Seed, Baseline: p.Models[p.Baseline].Label,
		Alpha: Alpha, Cancelled: o.Cancelled, Failures: o.Failures()}
	for _, c := range cols {
		for m, model := range p.Models {
			st := o.Stat(c.Dataset, m, c.Metric)
			r := ResultJSON{Dataset: p.Datasets[c.Dataset].Name, Model: model.Label, Metric: c.Metric,
				Mean: numfmt.Float(st.Mean), Std: numfmt.Float(st.Std), N: st.N, Mark: st.Mark.Text(), Verdict: st.Mark.String()}
			if st.Mark != Baseline && st.Mark != NoTest {
				t, p := numfmt.Float(st.Test.T), numfmt.Float(st.Test.P)
				r.T, r.DF, r.P = &t, st.Test.DF, &p
			}
			s.Results = append(s.Results, r)
		}
	}
	for m, model := range p.Models {
		if m != p.Baseline {
			w, t, l := o.WTL(m, cols)
			s.WTL = append(s.WTL, WTLJSON{model.Label, w, t, l})
		}
	}
	if len(p.Datasets) > 1 && len(cols) > 0 {
		rk := o.Rank(RankMetric(cols))
		s.Ranking = &RankingJSON{Metric: rk.Metric, Datasets: rk.Datasets, Ranks: numfmt.Floats(rk.Ranks),
			ChiSq: numfmt.Float(rk.ChiSq), FF: numfmt.Float(rk.FF), P: numfmt.Float(rk.P), CD: numfmt.Float(rk.CD),
			Caveat: rk.SmallSample()}
	}
	return s
}
