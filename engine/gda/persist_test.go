package gda

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// withoutClass drops the rows of class c, keeping every class name: the
// model then has a class without rows (log prior -Inf), as in a fold of
// cross-validation.
func withoutClass(d engine.Train, c float64) engine.Train {
	var rows []int
	for i, y := range d.Y {
		if y != c {
			rows = append(rows, i)
		}
	}
	_, p := d.X.Dims()
	X := mat.NewDense(len(rows), p, nil)
	Y := make([]float64, len(rows))
	for r, i := range rows {
		X.SetRow(r, d.X.RawRowView(i))
		Y[r] = d.Y[i]
	}
	d.X, d.Y = X, Y
	return d
}

// mixedTrain is the nominal data set (with its missing values) and a
// numeric column, for categorical naive Bayes.
func mixedTrain(t *testing.T) engine.Train {
	d, _ := nominalTrain(t, false)
	n, p := d.X.Dims()
	X := mat.NewDense(n, p+1, nil)
	for i := range n {
		copy(X.RawRowView(i), d.X.RawRowView(i))
		X.Set(i, p, float64(i%7)*0.3+d.Y[i])
	}
	d.X = X
	d.Features = append(append([]string(nil), d.Features...), "score")
	d.Columns = append(append([]datasets.Column(nil), d.Columns...), datasets.Column{Name: "score", Kind: datasets.Numeric})
	return d
}

// accessors reads what a model offers beyond the capabilities.
func accessors(m engine.Model) any {
	switch m := m.(type) {
	case *LDA:
		return []any{m.Means(), m.Covariance(), m.PriorProbs(), m.Classes()}
	case *QDA:
		return []any{m.Means(), m.Covariances(), m.PriorProbs(), m.Classes(), m.Warnings()}
	case *GaussianNB:
		return []any{m.Means(), m.Variances(), m.Epsilon(), m.PriorProbs(), m.Classes()}
	case *CategoricalNB:
		var levels []*mat.Dense
		for j := range m.d {
			levels = append(levels, m.LevelProbs(j))
		}
		return levels
	}
	return nil
}

// Every model of the package, with the settings that change what its state
// holds or how it is read (priors, shrinkage, a loss matrix, a class
// without rows), saved, loaded and compared; and edits of each state that
// loading must refuse.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	wine := persisttest.Builtin(t, "wine", datasets.Classification)
	digits := persisttest.Builtin(t, "digits", datasets.Classification)
	noSetosa := withoutClass(iris, 0)
	set, drop, shorten, lengthen := persisttest.Set, persisttest.Drop, persisttest.Shorten, persisttest.Lengthen
	gaussian := func(name string, settings map[string]string, d engine.Train, edits ...persisttest.Mutation) persisttest.Case {
		edits = append(edits, shorten("class_weights"), set("class_weights.1", -1.0), set("class_weights.2", "inf"),
			shorten("means.0"), shorten("means"), shorten("features"), lengthen("classes"), drop("means"))
		return persisttest.Case{Name: name, Settings: settings, Train: d, X: d.X, Edits: edits, Extra: accessors}
	}
	risk := map[string]string{"decision": "risk", "loss": "0,1,1;5,0,1;1,1,0"}
	lda := []persisttest.Mutation{shorten("covariance.0"), set("covariance.0.1", 123.0), set("covariance.0.0", -1.0),
		set("covariance", []any{})}
	qda := []persisttest.Mutation{shorten("covariances"), set("covariances.1", []any{}), set("covariances.1.0.1", 7.0),
		set("covariances.1.0.0", 0.0)}
	gnb := []persisttest.Mutation{set("variances.1.0", 0.0), set("epsilon", 0.0), shorten("variances.1"), drop("epsilon")}
	mixed := mixedTrain(t)
	persisttest.Check(t, []persisttest.Case{
		gaussian("lda", nil, iris, lda...),
		gaussian("lda", map[string]string{"priors": "uniform", "estimator": "unbiased", "reg": "0.1"}, wine, lda...),
		gaussian("lda", risk, iris, lda...),
		gaussian("lda", nil, digits), // constant pixels: null directions dropped
		gaussian("lda", nil, noSetosa, append(lda, set("class_weights.1", 0.0))...),
		gaussian("qda", nil, iris, qda...),
		gaussian("qda", map[string]string{"reg": "0.01", "priors": "uniform"}, wine, qda...),
		gaussian("qda", risk, noSetosa, set("covariances.0", []any{[]any{1.0}}), set("class_weights.0", 3.0)),
		gaussian("gnb", nil, iris, gnb...),
		gaussian("gnb", map[string]string{"var_smoothing": "0.01"}, digits, gnb...),
		gaussian("gnb", risk, noSetosa, gnb...),
		{Name: "cnb", Train: mixed, X: mixed.X, Extra: accessors, Edits: []persisttest.Mutation{
			set("levels.0", 99.0), set("class_rows.0", 1.5), set("class_rows.0", 0.0), set("nominal.0", false),
			set("nominal.9", true), shorten("log_prob.0.1"), shorten("log_prob"), set("log_prob.9", []any{[]any{0.0}}),
			set("variances.0.9", 0.0), shorten("means"), shorten("features"), set("levels.0", -1.0)}},
		{Name: "cnb", Settings: map[string]string{"priors": "uniform", "alpha": "0.5"}, Train: mixed, X: mixed.X, Extra: accessors},
	})
}

func FuzzQDAState(f *testing.F) {
	iris := persisttest.Builtin(f, "iris", datasets.Classification)
	c := persisttest.Case{Name: "qda", Train: iris, X: iris.X}
	persisttest.Fuzz(f, c, persisttest.State(f, c))
}
