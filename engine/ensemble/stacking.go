package ensemble

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Stacking feeds its members' out-of-fold predictions to a meta-model
// (scikit-learn's StackingClassifier and StackingRegressor; Wolpert 1992):
// each member is fitted cv times on an inner k-fold of the training rows,
// each time predicting the inner fold it did not see, then once more on
// every training row; the meta-model learns from the out-of-fold
// predictions, so that it weighs the members by how they do on rows they
// did not see. A member gives the meta-model its class probabilities
// (only class 1's with two classes, as scikit-learn keeps them), else its
// decision scores, else its class (one-hot); a regressor its value. With
// passthrough the meta-model also sees the features.
type Stacking struct {
	Models      string // the members as written ("" for the default)
	Final       string // the meta-model as written ("" for the default)
	CV          int    // inner folds
	Shuffle     bool   // draw the inner folds from Train.Seed; else scikit-learn's unshuffled (Stratified)KFold
	Passthrough bool

	task   engine.Task
	k, p   int
	list   []resolved     // the members fitted so far
	feeds  []feed         // what each gives the meta-model
	models []engine.Model // their fits on every training row
	errs   []float64      // each member's out-of-fold error
	final  resolved
	meta   engine.Model // fitted on the out-of-fold predictions of the members so far
	engine.FitState
}

var (
	_ engine.Predictor  = (*Stacking)(nil)
	_ engine.Prober     = (*Stacking)(nil)
	_ engine.Persistent = (*Stacking)(nil)
	_ engine.Warner     = (*Stacking)(nil)
)

// feed is what a member gives the meta-model.
type feed int

const (
	feedProba feed = iota
	feedScores
	feedLabels
	feedValues
)

var feedNames = [...]string{"probabilities", "scores", "labels", "values"}

func (f feed) String() string { return feedNames[f] }

// The meta-models an empty final stands for, as scikit-learn's defaults
// (LogisticRegression; RidgeCV, whose cross-validated penalty the lab's
// ridge leaves to a sweep).
func defaultFinal(task engine.Task) string {
	if task == datasets.Classification {
		return "logistic"
	}
	return "ridge"
}

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "stacking",
		Title:    "stacked generalisation",
		Family:   family,
		Summary:  "any classifiers (or regressors) whose out-of-fold predictions a meta-model learns to combine",
		Notes: "Wolpert 1992, Stacked generalization; Shewchuk, Concise Machine Learning, lecture 15 (ensemble learning); " +
			"scikit-learn 1.2 user guide, section 1.11.7 (StackingClassifier, StackingRegressor)",
		Tasks: []engine.Task{datasets.Classification, datasets.Regression},
		Unit:  "member",
		// The meta-model's training error: on the members' out-of-fold
		// answers, so it does not reward a member that memorises.
		Loss:        "stack's training error (on out-of-fold answers)",
		ErrorLoss:   true,
		Standardize: true,
		Params: []engine.Param{
			membersParam(),
			{Name: "final", Kind: engine.Text, Default: "",
				Help: "the meta-model, as a member is written (empty: logistic, ridge for regression)",
				Detail: "It learns from the members' out-of-fold probabilities (class 1's alone with two classes), else their decision scores, else their classes one-hot; " +
					"a regressor's values. A stacked classifier's meta-model must give probabilities.",
				Check: checkOne},
			{Name: "cv", Kind: engine.Int, Default: 5, Min: 2, Max: 100,
				Help: "inner folds of the training rows whose out-of-fold predictions train the meta-model"},
			{Name: "shuffle", Kind: engine.Bool, Default: true,
				Help:   "draw the inner folds at random from the seed (false: in row order, as scikit-learn's cv=5)",
				Detail: "Folds are stratified by class for a classifier. shuffle=false gives scikit-learn's StratifiedKFold (KFold for regression) without shuffling, fold for fold."},
			{Name: "passthrough", Kind: engine.Bool, Default: false,
				Help: "the meta-model also sees the features, beside the members' predictions"},
		},
		Memory: func(s engine.Shape, v engine.Values) engine.Need {
			return membersMemory(s, v.String("models"), v.Int("cv")).Plus(stackMemory(s, v))
		},
		New: func(v engine.Values) (engine.Model, error) {
			m := &Stacking{Models: v.String("models"), Final: v.String("final"), CV: v.Int("cv"),
				Shuffle: v.Bool("shuffle"), Passthrough: v.Bool("passthrough")}
			if strings.TrimSpace(m.Models) != "" {
				ms, err := parseList(m.Models)
				if err == nil {
					_, err = resolve(ms)
				}
				if err != nil {
					return nil, fmt.Errorf("parameter models: %w", err)
				}
			}
			if strings.TrimSpace(m.Final) != "" {
				fs, err := parseList(m.Final)
				if err == nil && len(fs) != 1 {
					err = fmt.Errorf("%d models; name one", len(fs))
				}
				var rs []resolved
				if err == nil {
					rs, err = resolve(fs)
				}
				if err == nil {
					err = checkFinal(rs[0], rs[0].spec.Tasks[0], !rs[0].spec.Supports(datasets.Regression))
				}
				if err != nil {
					return nil, fmt.Errorf("parameter final: %w", err)
				}
			}
			return m, nil
		},
	})
}

// checkFinal checks that a meta-model can stack a task: a stacked
// classifier gives probabilities, so its meta-model must (checked when
// sure is set: a final that also regresses is checked at Fit).
func checkFinal(r resolved, task engine.Task, sure bool) error {
	if task != datasets.Classification || !sure {
		return nil
	}
	m, err := r.build()
	if err != nil {
		return err
	}
	if _, ok := m.(engine.Prober); !ok {
		return fmt.Errorf("%s gives no probabilities; a stacked classifier's meta-model must (logistic, lda, gnb...)", r.Text)
	}
	return nil
}

// resolveFinal is the meta-model for a task.
func (s *Stacking) resolveFinal(task engine.Task) (resolved, error) {
	rs, err := forTask(s.Final, defaultFinal(task), task)
	if err != nil {
		return resolved{}, fmt.Errorf("final: %w", err)
	}
	if len(rs) != 1 {
		return resolved{}, fmt.Errorf("final: %d models; name one", len(rs))
	}
	if err := checkFinal(rs[0], task, true); err != nil {
		return resolved{}, fmt.Errorf("final: %w", err)
	}
	rs[0].role = "final"
	return rs[0], nil
}

// Fit fits the members one after another, each on the inner folds and
// then on every training row, and after each the meta-model on the
// out-of-fold predictions of the members so far: each step leaves the
// stack of the members so far, which a Predict inside the step uses. The
// meta-model is small next to the members' fits, so refitting it per
// member costs little.
func (s *Stacking) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	s.list, s.feeds, s.models, s.errs, s.meta = nil, nil, nil, nil, nil
	task := taskOf(t)
	list, err := forTask(s.Models, defaultMembers(task), task)
	if err != nil {
		return fmt.Errorf("stacking: %w", err)
	}
	final, err := s.resolveFinal(task)
	if err != nil {
		return fmt.Errorf("stacking: %w", err)
	}
	if err := engine.CheckTrain(t, "stacking", true); err != nil {
		return err
	}
	if task == datasets.Classification {
		if _, err := engine.PresentClasses(t, "stacking"); err != nil {
			return err
		}
	}
	n := t.Rows()
	if n < s.CV {
		return engine.Limitf("stacking: cv=%d inner folds need at least %d training rows; there are %d", s.CV, s.CV, n)
	}
	s.task, s.k, s.p, s.final = task, len(t.Classes), t.Cols(), final
	folds := innerFolds(t, s.CV, s.Shuffle)
	parts := make([][]int, s.CV) // each fold's rows
	for i, f := range folds {
		parts[f] = append(parts[f], i)
	}
	ticker, _ := rec.(engine.Ticker)
	var oof []*mat.Dense // each member's out-of-fold features
	for i, r := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		seed := memberSeed(t.Seed, i)
		var F *mat.Dense
		var fd feed
		for f := range s.CV {
			var in []int
			for g := range s.CV {
				if g != f {
					in = append(in, parts[g]...)
				}
			}
			mt := subset(t, in)
			mt.Seed = seed
			m, err := fitMember(ctx, r, mt, memberRecorder{ctx: ctx, outer: ticker, step: i + 1, total: len(list),
				base: float64(f) / float64(s.CV+1), share: 1 / float64(s.CV+1)})
			if err != nil {
				return fmt.Errorf("stacking: inner fold %d of %d: %w", f+1, s.CV, err)
			}
			if f == 0 {
				fd = s.feedOf(m)
			}
			held := subset(t, parts[f]).X
			P, err := s.features(r.label(), m, fd, held)
			if err != nil {
				return fmt.Errorf("stacking: inner fold %d of %d: %w", f+1, s.CV, err)
			}
			if F == nil {
				_, c := P.Dims()
				F = mat.NewDense(n, c, nil)
			}
			for j, row := range parts[f] {
				F.SetRow(row, P.RawRowView(j))
			}
		}
		mt := t
		mt.Seed = seed
		m, err := fitMember(ctx, r, mt, memberRecorder{ctx: ctx, outer: ticker, step: i + 1, total: len(list),
			base: float64(s.CV) / float64(s.CV+1), share: 1 / float64(s.CV+1)})
		if err != nil {
			return fmt.Errorf("stacking: %w", err)
		}
		oof = append(oof, F)
		memberErr := errorOf(task, s.decideFeed(F, fd), t.Y, t.Weights)

		// The stack of the members so far.
		meta, err := s.fitMeta(ctx, t, oof, list[:i+1], len(list))
		if err != nil {
			return fmt.Errorf("stacking: %w", err)
		}
		metaPred, err := predictCodes(final.label(), meta, s.metaRows(oof, t.X), 0)
		if err != nil {
			return fmt.Errorf("stacking: %w", err)
		}
		s.list, s.feeds, s.models = list[:i+1], append(s.feeds, fd), append(s.models, m)
		s.errs, s.meta = append(s.errs, memberErr), meta
		s.Fitted = true
		loss := errorOf(task, metaPred, t.Y, t.Weights)
		if err := rec.Step(engine.Step{Step: i + 1, Total: len(list), TrainLoss: loss,
			Detail: Member{Name: r.Text, Index: i, Error: memberErr}}); err != nil {
			return err
		}
	}
	return nil
}

// feedOf is what a fitted member gives the meta-model.
func (s *Stacking) feedOf(m engine.Model) feed {
	if s.task == datasets.Regression {
		return feedValues
	}
	if _, ok := m.(engine.Prober); ok {
		return feedProba
	}
	if _, ok := m.(engine.Scorer); ok {
		return feedScores
	}
	return feedLabels
}

// width is the number of meta-features a member of feed f gives.
func (s *Stacking) width(f feed) int {
	if f == feedValues || s.k == 2 {
		return 1
	}
	return s.k
}

// scoreBound keeps decision scores finite for the meta-model: a class a
// member never saw scores -MaxFloat64, which would overflow its products.
const scoreBound = 1e6

// features is what member m, of feed f, gives the meta-model for rows X.
func (s *Stacking) features(name string, m engine.Model, f feed, X mat.Matrix) (*mat.Dense, error) {
	n, _ := X.Dims()
	w := s.width(f)
	switch f {
	case feedProba:
		P, err := predictProba(name, m, X, s.k)
		if err != nil || s.k != 2 {
			return P, err
		}
		return mat.DenseCopyOf(P.Slice(0, n, 1, 2)), nil
	case feedScores:
		S, err := predictScores(name, m, X, s.k)
		if err != nil {
			return nil, err
		}
		r, c := S.Dims()
		for i := range r {
			for j := range c {
				S.Set(i, j, math.Max(-scoreBound, math.Min(scoreBound, S.At(i, j))))
			}
		}
		return S, nil
	}
	k := 0
	if f == feedLabels {
		k = s.k
	}
	y, err := predictCodes(name, m, X, k)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(n, w, nil)
	for i, v := range y {
		switch {
		case f == feedValues:
			out.Set(i, 0, v)
		case w == 1:
			out.Set(i, 0, v) // two classes: 1 for class 1
		default:
			out.Set(i, int(v), 1)
		}
	}
	return out, nil
}

// decideFeed is the member's own prediction read back from its features,
// for its out-of-fold error.
func (s *Stacking) decideFeed(F *mat.Dense, f feed) []float64 {
	n, c := F.Dims()
	out := make([]float64, n)
	for i := range out {
		row := F.RawRowView(i)
		switch {
		case f == feedValues:
			out[i] = row[0]
		case c == 1:
			cut := 0.0
			if f == feedProba || f == feedLabels {
				cut = 0.5
			}
			if row[0] > cut {
				out[i] = 1
			}
		default:
			out[i] = float64(floats.MaxIdx(row)) // the first largest
		}
	}
	return out
}

// metaRows lays out the meta-model's rows: each member's features, in
// order, then the features themselves with passthrough.
func (s *Stacking) metaRows(feats []*mat.Dense, X mat.Matrix) *mat.Dense {
	n, p := X.Dims()
	cols := 0
	for _, F := range feats {
		_, c := F.Dims()
		cols += c
	}
	if s.Passthrough {
		cols += p
	}
	out := mat.NewDense(n, cols, nil)
	at := 0
	for _, F := range feats {
		_, c := F.Dims()
		out.Slice(0, n, at, at+c).(*mat.Dense).Copy(F)
		at += c
	}
	if s.Passthrough {
		out.Slice(0, n, at, at+p).(*mat.Dense).Copy(X)
	}
	return out
}

// metaNames names the meta-features, for the meta-model's coefficients.
func (s *Stacking) metaNames(list []resolved, feats []*mat.Dense, t engine.Train) []string {
	var names []string
	for i, F := range feats {
		_, c := F.Dims()
		for j := range c {
			switch {
			case c == 1 && s.k == 2:
				names = append(names, list[i].Text+":"+t.Classes[1])
			case c == 1:
				names = append(names, list[i].Text)
			default:
				names = append(names, list[i].Text+":"+t.Classes[j])
			}
		}
	}
	if s.Passthrough {
		_, p := t.X.Dims()
		for j := range p {
			if j < len(t.Features) {
				names = append(names, t.Features[j])
			} else {
				names = append(names, fmt.Sprintf("x%d", j+1))
			}
		}
	}
	return names
}

// fitMeta fits the meta-model on the out-of-fold features of the members
// list (of total members), with its own seed.
func (s *Stacking) fitMeta(ctx context.Context, t engine.Train, oof []*mat.Dense, list []resolved, total int) (engine.Model, error) {
	mt := engine.Train{X: s.metaRows(oof, t.X), Y: t.Y, Classes: t.Classes, Weights: t.Weights,
		Features: s.metaNames(list, oof, t), Seed: memberSeed(t.Seed, total)}
	return fitMember(ctx, s.final, mt, engine.ContextRecorder{Ctx: ctx})
}

// metaInput is the meta-model's rows for X: the fitted members' features.
func (s *Stacking) metaInput(X mat.Matrix) (*mat.Dense, error) {
	if !s.Fitted {
		return nil, engine.ErrNotFitted
	}
	if err := checkCols("stacking", X, s.p); err != nil {
		return nil, err
	}
	feats := make([]*mat.Dense, len(s.models))
	for i, m := range s.models {
		F, err := s.features(s.list[i].label(), m, s.feeds[i], X)
		if err != nil {
			return nil, fmt.Errorf("stacking: %w", err)
		}
		feats[i] = F
	}
	return s.metaRows(feats, X), nil
}

// Predict implements engine.Predictor: the meta-model's prediction from
// the members' answers.
func (s *Stacking) Predict(X mat.Matrix) ([]float64, error) {
	if n, _ := X.Dims(); n == 0 && s.Fitted {
		return []float64{}, checkCols("stacking", X, s.p)
	}
	Z, err := s.metaInput(X)
	if err != nil {
		return nil, err
	}
	k := s.k
	return predictCodes(s.final.label(), s.meta, Z, k)
}

// PredictProba implements engine.Prober: the meta-model's probabilities.
func (s *Stacking) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if s.Fitted && s.task == datasets.Regression {
		return nil, errors.New("stacking: a regression has no class probabilities")
	}
	if n, _ := X.Dims(); n == 0 && s.Fitted {
		return &mat.Dense{}, checkCols("stacking", X, s.p)
	}
	Z, err := s.metaInput(X)
	if err != nil {
		return nil, err
	}
	return predictProba(s.final.label(), s.meta, Z, s.k)
}

// Warnings implements engine.Warner: the members' and the meta-model's.
func (s *Stacking) Warnings() []string {
	out := memberWarnings(s.list, s.models)
	if w, ok := s.meta.(engine.Warner); ok && s.Fitted {
		for _, x := range w.Warnings() {
			out = append(out, s.final.label()+": "+x)
		}
	}
	return out
}

func (s *Stacking) info() *Members {
	what := "out-of-fold error"
	if s.task == datasets.Regression {
		what = "out-of-fold MSE"
	}
	info := &Members{Method: "stacking", Final: s.final.Text, Error: what}
	for i := range s.models {
		info.Members = append(info.Members, MemberInfo{Name: s.list[i].Text, Feeds: s.feeds[i].String(), Error: s.errs[i]})
	}
	return info
}

// innerFolds assigns each training row an inner fold 0..cv-1: stratified
// by class for a classifier. shuffle draws them from the seed; otherwise
// they are scikit-learn 1.2's StratifiedKFold(cv) (KFold for regression)
// without shuffling, fold for fold, so that a stack of deterministic
// members can be checked against scikit-learn's.
func innerFolds(t engine.Train, cv int, shuffle bool) []int {
	n := t.Rows()
	folds := make([]int, n)
	if len(t.Classes) == 0 {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		if shuffle {
			rng := rand.New(rand.NewPCG(t.Seed, 0x666f6c6473))
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		// KFold: the first n%cv folds hold one row more.
		at := 0
		for f := range cv {
			size := n / cv
			if f < n%cv {
				size++
			}
			for _, r := range order[at : at+size] {
				folds[r] = f
			}
			at += size
		}
		return folds
	}
	// StratifiedKFold: classes renumbered in the order they first appear;
	// the rows sorted by class are dealt round the folds to count how many
	// of each class a fold takes; each class's rows, in row order, then
	// fill the folds in turn.
	k := len(t.Classes)
	enc := make([]int, k)
	for i := range enc {
		enc[i] = -1
	}
	next := 0
	for _, y := range t.Y {
		if c := int(y); enc[c] < 0 {
			enc[c] = next
			next++
		}
	}
	counts := make([]int, next)
	for _, y := range t.Y {
		counts[enc[int(y)]]++
	}
	alloc := make([][]int, cv) // alloc[f][c]: rows of class c in fold f
	for f := range alloc {
		alloc[f] = make([]int, next)
	}
	pos := 0
	for c, m := range counts {
		for range m {
			alloc[pos%cv][c]++
			pos++
		}
	}
	var rng *rand.Rand
	if shuffle {
		rng = rand.New(rand.NewPCG(t.Seed, 0x666f6c6473))
	}
	for c := range next {
		var seq []int
		for f := range cv {
			for range alloc[f][c] {
				seq = append(seq, f)
			}
		}
		if rng != nil {
			rng.Shuffle(len(seq), func(i, j int) { seq[i], seq[j] = seq[j], seq[i] })
		}
		j := 0
		for i, y := range t.Y {
			if enc[int(y)] == c {
				folds[i] = seq[j]
				j++
			}
		}
	}
	return folds
}
