package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// errNotSeparable is a hard margin asked of classes no hyperplane separates.
var errNotSeparable = errors.New("svm: the classes are not linearly separable, so a hard margin has no solution: use margin=soft or a kernel")

// linearHardFloor: a hard margin is declared impossible once the dual
// certifies that no hyperplane separates the rows by more than this share
// of their largest norm (see marginBound).
const linearHardFloor = 1e-4

// linearDCD is the state of dual coordinate descent (Hsieh, Chang, Lin,
// Keerthi & Sundararajan 2008, Algorithm 3, as LIBLINEAR's
// solve_l2r_l1l2_svc for the hinge loss) on the dual
// max Σα_i − ½‖Σ α_i y_i x̃_i‖², 0 ≤ α_i ≤ C_i, keeping w̃ = Σ α_i y_i x̃_i.
type linearDCD struct {
	r        *linearRows
	m        linearModel
	row      []linearDCDRow
	sumAlpha float64
	support  int   // rows with α_i > 0
	index    []int // rows in visiting order; the first active are not shrunk
	active   int
	// The projected gradient's extremes on the last pass, for shrinking.
	pgMaxOld, pgMinOld float64
}

// linearDCDRow is what a coordinate step reads of its row besides x_i,
// together: the steps visit rows in random order, and one cache line
// serves them all.
type linearDCDRow struct {
	y, upper, xx, alpha float64
}

// solveLinearDCD runs dual coordinate descent with shrinking until the
// projected gradient's spread is under o.Tol on every row.
func solveLinearDCD(ctx context.Context, r *linearRows, o linearOptions, step func(int, Progress) error) (linearSolution, error) {
	s := &linearDCD{r: r, m: linearModel{w: make([]float64, r.d)}, row: make([]linearDCDRow, r.n),
		index: make([]int, r.n), active: r.n, pgMaxOld: math.Inf(1), pgMinOld: math.Inf(-1)}
	for i := range s.index {
		s.index[i] = i
		s.row[i] = linearDCDRow{y: r.y[i], upper: r.upper[i], xx: r.xx[i]}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x853c49e6748fea9b))
	var budget linearPrimalBudget
	var sol linearSolution
	for sol.Passes < o.MaxIter {
		if err := ctx.Err(); err != nil {
			return linearSolution{}, err
		}
		sol.Passes++
		budget.visited += s.active
		sol.Converged = s.pass(rng, o.Tol)
		last := sol.Converged || sol.Passes == o.MaxIter
		pr := s.progress(&budget, last)
		if err := step(sol.Passes, pr); err != nil {
			return linearSolution{}, err
		}
		if sol.Converged {
			break
		}
		if r.hard && s.marginBound() < linearHardFloor*r.maxRadius {
			return linearSolution{}, errNotSeparable
		}
	}
	if r.hard {
		if err := s.checkSeparated(sol); err != nil {
			return linearSolution{}, err
		}
	}
	sol.W, sol.B = s.m.w, s.m.b
	sol.Alpha = make([]float64, r.n)
	for i, row := range s.row {
		sol.Alpha[i] = row.alpha
	}
	return sol, nil
}

// pass visits the active rows once in a random order, shrinking those at a
// bound whose gradient pushes them further out, and says whether the
// problem has converged: the projected gradient's spread under tol with
// every row active. Convergence on the shrunk rows alone brings every row
// back for another pass, as LIBLINEAR does. The spread alone would also
// pass rows whose projected gradients are all well below 0 (α without a
// top still rising): convergence also needs them to straddle 0.
func (s *linearDCD) pass(rng *rand.Rand, tol float64) bool {
	r := s.r
	linearShuffle(rng, s.index[:s.active])
	pgMax, pgMin := math.Inf(-1), math.Inf(1)
	for k := 0; k < s.active; k++ {
		i := s.index[k]
		row := &s.row[i]
		g := row.y*s.m.decision(r, i) - 1
		pg, shrink := s.projected(row, g)
		if shrink {
			s.active--
			s.index[k], s.index[s.active] = s.index[s.active], s.index[k]
			k--
			continue
		}
		if pg > pgMax {
			pgMax = pg
		}
		if pg < pgMin {
			pgMin = pg
		}
		if pg > 1e-12 || pg < -1e-12 {
			s.move(i, row, row.clipped(row.alpha-g/row.xx))
		}
	}
	settled := pgMax-pgMin <= tol
	switch {
	case settled && s.active < r.n:
		s.active = r.n
		s.pgMaxOld, s.pgMinOld = math.Inf(1), math.Inf(-1)
		return false
	case settled && pgMin <= 0 && pgMax >= 0:
		return true
	}
	s.pgMaxOld, s.pgMinOld = pgMax, pgMin
	if s.pgMaxOld <= 0 {
		s.pgMaxOld = math.Inf(1)
	}
	if s.pgMinOld >= 0 {
		s.pgMinOld = math.Inf(-1)
	}
	return false
}

// projected is the row's projected gradient given its gradient g, and
// whether the row is to be shrunk: at a bound, pushed outward harder than
// any row's projected gradient reached on the last pass.
func (s *linearDCD) projected(row *linearDCDRow, g float64) (pg float64, shrink bool) {
	switch a := row.alpha; {
	case a == 0:
		if g > s.pgMaxOld {
			return 0, true
		}
		if g < 0 {
			return g, false
		}
		return 0, false
	case a >= row.upper:
		if g < s.pgMinOld {
			return 0, true
		}
		if g > 0 {
			return g, false
		}
		return 0, false
	}
	return g, false
}

// clipped is a moved into the row's box [0, C_i].
func (row *linearDCDRow) clipped(a float64) float64 {
	if a < 0 {
		return 0
	}
	if a > row.upper {
		return row.upper
	}
	return a
}

// move sets α_i and updates w̃ by (Δα_i) y_i x̃_i.
func (s *linearDCD) move(i int, row *linearDCDRow, a float64) {
	old := row.alpha
	if a == old {
		return
	}
	row.alpha = a
	s.sumAlpha += a - old
	switch {
	case old == 0:
		s.support++
	case a == 0:
		s.support--
	}
	s.m.addRow(s.r, i, (a-old)*row.y)
}

// progress is the dual objective every pass, and the primal and the gap
// when the budget allows (NaN otherwise).
func (s *linearDCD) progress(b *linearPrimalBudget, last bool) Progress {
	pr := Progress{Dual: s.sumAlpha - s.m.halfNormSq(), Primal: math.NaN(), Gap: math.NaN(), SupportVectors: s.support}
	if last || b.due() {
		b.charge(s.r.n)
		pr.Primal, _ = linearPrimal(s.r, &s.m)
		pr.Gap = pr.Primal - pr.Dual
	}
	return pr
}

// marginBound bounds the widest margin any hyperplane (with the
// constant feature, unit normal v) can have on the rows, by weak duality:
// the dual objective D never exceeds the optimal ½‖w̃*‖² = 1/(2γ*²), so
// γ* ≤ 1/√(2D); and u = α/Σα weighs the rows so that
// min_i y_i v·x̃_i ≤ Σ u_i y_i v·x̃_i ≤ ‖w̃‖/Σα. On rows no hyperplane
// separates, α and D grow without bound and so the bound falls towards 0.
func (s *linearDCD) marginBound() float64 {
	bound := math.Inf(1)
	if s.sumAlpha > 0 {
		bound = math.Sqrt(2*s.m.halfNormSq()) / s.sumAlpha
	}
	if dual := s.sumAlpha - s.m.halfNormSq(); dual > 0 {
		bound = math.Min(bound, 1/math.Sqrt(2*dual))
	}
	return bound
}

// checkSeparated vets a hard margin's result. Every row on its side
// (y_i f(x_i) > 0) certifies that the classes are separable: the result
// stands, converged or not. (Converged, every row has y_i f(x_i) ≥ 1 − tol.)
// Otherwise the passes ran out before any separating hyperplane was found,
// and the error says how narrow any would be.
func (s *linearDCD) checkSeparated(sol linearSolution) error {
	if linearSmallestMargin(s.r, &s.m, false) > 0 {
		return nil
	}
	return fmt.Errorf("svm: no hyperplane separates the classes after %d passes, and none could by more than %.3g: "+
		"they are not linearly separable or barely so; use margin=soft, a kernel, or more passes", sol.Passes, s.marginBound())
}

// linearSmallestMargin is min_i y_i f(x_i) over every row, or over the
// hard-margin rows only (+Inf when there are none).
func linearSmallestMargin(r *linearRows, m *linearModel, hardOnly bool) float64 {
	least := math.Inf(1)
	for i := 0; i < r.n; i++ {
		if !hardOnly || math.IsInf(r.upper[i], 1) {
			least = math.Min(least, r.y[i]*m.decision(r, i))
		}
	}
	return least
}

// linearShuffle is rand.Shuffle without its call per swap: a tenth of a
// pass's time on the bench case.
func linearShuffle(rng *rand.Rand, index []int) {
	for k := len(index) - 1; k > 0; k-- {
		j := int(rng.Uint64N(uint64(k + 1)))
		index[k], index[j] = index[j], index[k]
	}
}
