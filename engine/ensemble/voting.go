package ensemble

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Voting fits every member on the same rows and combines their answers
// (scikit-learn's VotingClassifier and VotingRegressor): hard voting takes
// the class with the most (weighted) votes, soft voting the class of the
// largest weighted mean probability; regression the weighted mean value.
// Ties go to the lowest class code, as numpy's argmax gives them.
type Voting struct {
	Models  string    // the members as written ("" for the default)
	Soft    bool      // voting=soft
	Weights []float64 // one per member; nil: equal

	task   engine.Task
	k, p   int
	list   []resolved     // the members fitted so far
	models []engine.Model // their fits
	errs   []float64      // each member's training error
	engine.FitState
}

var (
	_ engine.Predictor  = (*Voting)(nil)
	_ engine.Scorer     = (*Voting)(nil)
	_ engine.Persistent = (*Voting)(nil)
	_ engine.Warner     = (*Voting)(nil)
	_ engine.Prober     = softVoting{}
)

// softVoting is soft voting, whose mean probabilities are probabilities;
// hard voting's shares of the votes are only scores (scikit-learn's hard
// VotingClassifier has no predict_proba either), so that evaluation does
// not take a share of 0 for a probability in a log-loss.
type softVoting struct{ *Voting }

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "voting",
		Title:    "voting ensemble",
		Family:   family,
		Summary:  "any classifiers (or regressors) fitted on the same rows: the majority vote, the mean probability, or the mean value",
		Notes: "Shewchuk, Concise Machine Learning, lecture 15 (ensemble learning: averaging learners that err differently); " +
			"scikit-learn 1.2 user guide, section 1.11.6 (VotingClassifier, VotingRegressor)",
		Tasks:       []engine.Task{datasets.Classification, datasets.Regression},
		Unit:        "member",
		Loss:        "training error",
		ErrorLoss:   true,
		Standardize: true,
		Params: []engine.Param{
			membersParam(),
			{Name: "voting", Kind: engine.Choice, Default: "hard", Choices: []string{"hard", "soft"},
				Help:   "classification: hard counts each member's class, soft averages their probabilities",
				Detail: "Soft voting needs every member to give probabilities (svm only with probability=true). Regression averages the members' values whichever is chosen."},
			{Name: "weights", Kind: engine.Text, Default: "",
				Help:   "one weight >= 0 a member, comma-separated, e.g. 2,1,1 (empty: equal)",
				Detail: "A member's votes, probabilities or values count that many times; the weights need not sum to 1.",
				Check:  checkWeights},
		},
		Memory: func(s engine.Shape, v engine.Values) engine.Need { return membersMemory(s, v.String("models"), 0) },
		New: func(v engine.Values) (engine.Model, error) {
			m := &Voting{Models: v.String("models"), Soft: v.String("voting") == "soft"}
			var err error
			if m.Weights, err = parseWeights(v.String("weights")); err != nil {
				return nil, fmt.Errorf("parameter weights: %w", err)
			}
			var list []resolved
			if strings.TrimSpace(m.Models) != "" {
				ms, err := parseList(m.Models)
				if err == nil {
					list, err = resolve(ms)
				}
				if err != nil {
					return nil, fmt.Errorf("parameter models: %w", err)
				}
			}
			if err := m.checkList(list); err != nil {
				return nil, err
			}
			if m.Soft {
				return softVoting{m}, nil
			}
			return m, nil
		},
	})
}

// checkList checks what the parameters ask of the members: a weight each,
// and probabilities from each for soft voting (a member that only
// regresses is checked when the task is known). list nil: the default
// members, which give probabilities.
func (v *Voting) checkList(list []resolved) error {
	n := 3
	if list != nil {
		n = len(list)
	}
	if v.Weights != nil && len(v.Weights) != n {
		return fmt.Errorf("parameter weights: %d weights for %d members", len(v.Weights), n)
	}
	if !v.Soft {
		return nil
	}
	for _, r := range list {
		if !r.spec.Supports(datasets.Classification) {
			continue
		}
		m, err := r.build()
		if err != nil {
			return err
		}
		if _, ok := m.(engine.Prober); !ok {
			return fmt.Errorf("parameter voting: soft needs probabilities, and member %s gives none (use voting=hard)", r.Text)
		}
	}
	return nil
}

// Fit fits the members one after another, each a step; after each the
// members so far are the ensemble a Predict inside the step uses.
func (v *Voting) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	v.list, v.models, v.errs = nil, nil, nil
	task := taskOf(t)
	list, err := forTask(v.Models, defaultMembers(task), task)
	if err != nil {
		return fmt.Errorf("voting: %w", err)
	}
	if err := v.checkList(list); err != nil {
		return fmt.Errorf("voting: %w", err)
	}
	if err := engine.CheckTrain(t, "voting", true); err != nil {
		return err
	}
	if task == datasets.Classification {
		if _, err := engine.PresentClasses(t, "voting"); err != nil {
			return err
		}
	}
	v.task, v.k, v.p = task, len(t.Classes), t.Cols()
	ticker, _ := rec.(engine.Ticker)
	var contribs []*mat.Dense // each member's answer on the training rows
	for i, r := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		mt := t
		mt.Seed = memberSeed(t.Seed, i)
		m, err := fitMember(ctx, r, mt, memberRecorder{ctx: ctx, outer: ticker, step: i + 1, total: len(list), share: 1})
		if err != nil {
			return fmt.Errorf("voting: %w", err)
		}
		C, err := v.contribution(r.label(), m, t.X)
		if err != nil {
			return fmt.Errorf("voting: %w", err)
		}
		contribs = append(contribs, C)
		v.list, v.models = list[:i+1], append(v.models, m)
		v.errs = append(v.errs, v.trainError(t, []*mat.Dense{C}, []float64{1}))
		v.Fitted = true
		loss := v.trainError(t, contribs, effective(v.Weights, i+1))
		if err := rec.Step(engine.Step{Step: i + 1, Total: len(list), TrainLoss: loss,
			Detail: Member{Name: r.Text, Index: i, Error: v.errs[i]}}); err != nil {
			return err
		}
	}
	return nil
}

// effective is the weights of the first m members; equal ones when they
// are all zero (a fit stopped before the members that weigh).
func effective(w []float64, m int) []float64 {
	out := make([]float64, m)
	sum := 0.0
	for i := range out {
		out[i] = 1
		if w != nil {
			out[i] = w[i]
		}
		sum += out[i]
	}
	if sum == 0 {
		for i := range out {
			out[i] = 1
		}
	}
	return out
}

// contribution is what member m says of the rows X: the one-hot code of
// its class (hard voting), its probabilities (soft), or its value (one
// column).
func (v *Voting) contribution(name string, m engine.Model, X mat.Matrix) (*mat.Dense, error) {
	n, _ := X.Dims()
	switch {
	case v.task == datasets.Regression:
		y, err := predictCodes(name, m, X, 0)
		if err != nil {
			return nil, err
		}
		return mat.NewDense(n, 1, y), nil
	case v.Soft:
		return predictProba(name, m, X, v.k)
	}
	y, err := predictCodes(name, m, X, v.k)
	if err != nil {
		return nil, err
	}
	C := mat.NewDense(n, v.k, nil)
	for i, c := range y {
		C.Set(i, int(c), 1)
	}
	return C, nil
}

// combine is the weighted mean of the contributions.
func combine(cs []*mat.Dense, w []float64) *mat.Dense {
	r, c := cs[0].Dims()
	out := mat.NewDense(r, c, nil)
	sum := 0.0
	for i, C := range cs {
		if w[i] == 0 {
			continue
		}
		out.Add(out, scaled(C, w[i]))
		sum += w[i]
	}
	out.Scale(1/sum, out)
	return out
}

func scaled(C *mat.Dense, w float64) *mat.Dense {
	var s mat.Dense
	s.Scale(w, C)
	return &s
}

// decide is the prediction of combined answers: the first largest column
// (classification), or the value.
func (v *Voting) decide(S *mat.Dense) []float64 {
	r, _ := S.Dims()
	out := make([]float64, r)
	for i := range out {
		row := S.RawRowView(i)
		if v.task == datasets.Regression {
			out[i] = row[0]
			continue
		}
		out[i] = float64(floats.MaxIdx(row)) // the first largest
	}
	return out
}

// trainError is the error of combined contributions on the training rows:
// the (weighted) share misclassified, or the MSE.
func (v *Voting) trainError(t engine.Train, cs []*mat.Dense, w []float64) float64 {
	pred := v.decide(combine(cs, w))
	return errorOf(v.task, pred, t.Y, t.Weights)
}

// errorOf is the share of rows misclassified, or the mean squared error,
// weighted by the sample weights when there are any.
func errorOf(task engine.Task, pred, y, weights []float64) float64 {
	sum, wsum := 0.0, 0.0
	for i, p := range pred {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		e := (p - y[i]) * (p - y[i])
		if task == datasets.Classification && e != 0 {
			e = 1
		}
		sum += w * e
		wsum += w
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum
}

// answers combines the members' answers on X.
func (v *Voting) answers(X mat.Matrix) (*mat.Dense, error) {
	if !v.Fitted {
		return nil, engine.ErrNotFitted
	}
	if err := checkCols("voting", X, v.p); err != nil {
		return nil, err
	}
	cs := make([]*mat.Dense, len(v.models))
	for i, m := range v.models {
		C, err := v.contribution(v.list[i].label(), m, X)
		if err != nil {
			return nil, fmt.Errorf("voting: %w", err)
		}
		cs[i] = C
	}
	return combine(cs, effective(v.Weights, len(v.models))), nil
}

// Predict implements engine.Predictor: the class of most (weighted) votes
// or of the largest mean probability; the weighted mean value.
func (v *Voting) Predict(X mat.Matrix) ([]float64, error) {
	if n, _ := X.Dims(); n == 0 && v.Fitted {
		return []float64{}, checkCols("voting", X, v.p)
	}
	S, err := v.answers(X)
	if err != nil {
		return nil, err
	}
	return v.decide(S), nil
}

// DecisionFunction implements engine.Scorer: the shares of the weighted
// votes (hard voting), or the weighted mean probabilities (soft).
func (v *Voting) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	if v.Fitted && v.task == datasets.Regression {
		return nil, errors.New("voting: a regression has no class scores")
	}
	if n, _ := X.Dims(); n == 0 && v.Fitted {
		return &mat.Dense{}, checkCols("voting", X, v.p)
	}
	return v.answers(X)
}

// PredictProba implements engine.Prober: the weighted mean probabilities.
func (v softVoting) PredictProba(X mat.Matrix) (*mat.Dense, error) { return v.DecisionFunction(X) }

// Warnings implements engine.Warner: the members', each naming it.
func (v *Voting) Warnings() []string { return memberWarnings(v.list, v.models) }

func memberWarnings(list []resolved, models []engine.Model) []string {
	var out []string
	for i, m := range models {
		if w, ok := m.(engine.Warner); ok {
			for _, s := range w.Warnings() {
				out = append(out, "member "+list[i].Text+": "+s)
			}
		}
	}
	return out
}

func (v *Voting) info() *Members {
	method, what := "averaging", "training MSE"
	if v.task == datasets.Classification {
		method, what = "hard voting", "training error"
		if v.Soft {
			method = "soft voting"
		}
	}
	info := &Members{Method: method, Error: what}
	w := effective(v.Weights, len(v.models))
	for i := range v.models {
		info.Members = append(info.Members, MemberInfo{Name: v.list[i].Text, Weight: w[i], Error: v.errs[i]})
	}
	return info
}
