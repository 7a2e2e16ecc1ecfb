// Package inspect computes the pictures the lab and the reports draw from a
// dataset and a model: the dataset laid in a plane (its two features, or its
// first two principal directions) and a model's decision regions over that
// plane. The UI only turns them into cells: no geometry is computed there.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Plane is a dataset seen in two dimensions: its own two numeric features, or
// the first two principal directions of its standardised numeric features.
type Plane struct {
	XY           *mat.Dense // n x 2
	XLabel       string
	YLabel       string
	Projected    bool    // true when XY is a PCA projection
	VarExplained float64 // share of the variance the two directions keep (projected only)
}

// ErrNoPlane says why a dataset has no 2-D map.
var ErrNoPlane = errors.New("a map needs at least two numeric features")

// Project2D places the rows of d in a plane. Missing values are replaced by
// their column's mean; nominal features are left out. With more than two
// numeric features (or any nominal one) it is a PCA of the standardised
// numeric features (the correlation-matrix PCA), each direction's sign fixed
// so that its largest loading is positive, which makes the picture stable.
func Project2D(d *datasets.Dataset) (Plane, error) {
	var num []int
	for j, c := range d.Features {
		if c.Kind == datasets.Numeric {
			num = append(num, j)
		}
	}
	if len(num) < 2 {
		return Plane{}, ErrNoPlane
	}
	n := d.Rows()
	if n < 3 {
		return Plane{}, fmt.Errorf("a map needs at least 3 rows, %s has %d", d.Name, n)
	}
	X := mat.NewDense(n, len(num), nil)
	col := make([]float64, n)
	for k, j := range num {
		mat.Col(col, j, d.X)
		sum, cnt := 0.0, 0
		for _, v := range col {
			if !math.IsNaN(v) {
				sum += v
				cnt++
			}
		}
		mean := 0.0
		if cnt > 0 {
			mean = sum / float64(cnt)
		}
		for i, v := range col {
			if math.IsNaN(v) {
				col[i] = mean
			}
		}
		X.SetCol(k, col)
	}
	if len(num) == 2 && len(d.Features) == 2 {
		return Plane{XY: X, XLabel: d.Features[num[0]].Name, YLabel: d.Features[num[1]].Name}, nil
	}
	standardizeCols(X)
	var pc stat.PC
	if ok := pc.PrincipalComponents(X, nil); !ok {
		return Plane{}, fmt.Errorf("%s: principal components did not converge", d.Name)
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	vars := pc.VarsTo(nil)
	W := mat.DenseCopyOf(vecs.Slice(0, len(num), 0, 2))
	for c := range 2 {
		w := mat.Col(nil, c, W)
		if w[floats.MaxIdx(absAll(w))] < 0 {
			floats.Scale(-1, w)
			W.SetCol(c, w)
		}
	}
	XY := mat.NewDense(n, 2, nil)
	XY.Mul(X, W)
	total := floats.Sum(vars)
	ve := 0.0
	if total > 0 {
		ve = (vars[0] + vars[1]) / total
	}
	return Plane{XY: XY, XLabel: "PC1", YLabel: "PC2", Projected: true, VarExplained: ve}, nil
}

// PlaneOf places the rows of d in the plane of two of its numeric features
// (indices into d.Features; missing values replaced by the column's
// mean), or, when either index is negative, in the plane Project2D
// chooses.
func PlaneOf(d *datasets.Dataset, x, y int) (Plane, error) {
	if x < 0 || y < 0 {
		return Project2D(d)
	}
	for _, j := range []int{x, y} {
		if j >= len(d.Features) || d.Features[j].Kind != datasets.Numeric {
			return Plane{}, fmt.Errorf("feature %d of %s is not a numeric feature", j+1, d.Name)
		}
	}
	n := d.Rows()
	XY := mat.NewDense(n, 2, nil)
	col := make([]float64, n)
	for k, j := range []int{x, y} {
		mat.Col(col, j, d.X)
		sum, cnt := 0.0, 0
		for _, v := range col {
			if !math.IsNaN(v) {
				sum += v
				cnt++
			}
		}
		for i, v := range col {
			if math.IsNaN(v) {
				col[i] = sum / float64(max(cnt, 1))
			}
		}
		XY.SetCol(k, col)
	}
	return Plane{XY: XY, XLabel: d.Features[x].Name, YLabel: d.Features[y].Name}, nil
}

func absAll(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Abs(v)
	}
	return out
}

// standardizeCols scales each column of X to mean 0 and (population) standard deviation 1 in
// place (constant columns are only centred) and returns the means and scales.
func standardizeCols(X *mat.Dense) (mean, scale []float64) {
	n, p := X.Dims()
	mean, scale = make([]float64, p), make([]float64, p)
	col := make([]float64, n)
	for j := range p {
		mat.Col(col, j, X)
		// In units of the column's largest magnitude, squares of values
		// near 1e160 or 1e-170 neither overflow nor underflow.
		unit := datasets.ScaleUnit(col...)
		for i := range col {
			col[i] /= unit
		}
		m, s := stat.PopMeanStdDev(col, nil) // as scikit-learn's StandardScaler
		m, s = m*unit, s*unit
		if s == 0 || math.IsNaN(s) {
			s = 1
		}
		mean[j], scale[j] = m, s
		for i := range col {
			col[i] = (col[i]*unit - m) / s
		}
		X.SetCol(j, col)
	}
	return mean, scale
}

// RegionMap is a model's decision regions over a plane, with the points on it.
type RegionMap struct {
	Plane   Plane
	Title   string
	Classes []string // names of the region values (classes or clusters)
	Truth   []int    // true class of each point; nil for clustering
	Pred    []int    // the 2-D model's prediction for each point
	Grid    [][]int  // Grid[r][c]: prediction at row r (r = 0 is the top, y max), column c
	// Conf[r][c] is the model's probability of the class it predicts
	// there (the shading of a TensorFlow Playground map); nil when the
	// model gives no probabilities.
	Conf [][]float64
	// Margin[r][c] is a two-class margin model's decision value f there
	// (engine.Marginer): |f| <= 1 is its margin band, f = 0 its boundary;
	// nil for other models.
	Margin [][]float64
	// Support are the points that are the plane model's support vectors
	// (engine.SupportVectorer); nil when it keeps none.
	Support    []int
	XMin, XMax float64   // the x range the grid covers
	YMin, YMax float64   // the y range the grid covers
	XCenters   []float64 // x of each grid column's centre
	YCenters   []float64 // y of each grid row's centre (top to bottom)
}

// GridSize chooses the grid for a map whose plane, points and bounds are
// known (the plot area of the widget that will draw it).
type GridSize func(rm *RegionMap) (cols, rows int)

// Regions fits spec with v on the dataset placed in plane pl (all its
// rows; a zero Plane means Project2D's) and predicts it on a grid of the
// size that size chooses once the plane is known. The grid has a square
// aspect: one unit spans as many screen units across as up, a terminal
// cell being about twice as tall as it is wide. The plane's two columns
// are standardised first when standardize says so (as the run's were:
// the spec's habit, or a person's override). It is slow for some models:
// call it off the UI goroutine, never from Update.
func Regions(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, v engine.Values, seed uint64, standardize bool, pl Plane, size GridSize) (rm *RegionMap, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("model %s crashed while drawing the map: %v", spec.Name, r)
		}
	}()
	if d.Task == datasets.Regression {
		return nil, errors.New("decision regions need a classification or clustering task")
	}
	if pl.XY == nil {
		if pl, err = Project2D(d); err != nil {
			return nil, err
		}
	}
	n := d.Rows()
	xy := pl.XY
	xs, ys := mat.Col(nil, 0, xy), mat.Col(nil, 1, xy)
	xmin, xmax := pad(floats.Min(xs), floats.Max(xs))
	ymin, ymax := pad(floats.Min(ys), floats.Max(ys))
	for _, v := range []float64{xmin, xmax, xmax - xmin, ymin, ymax, ymax - ymin} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: the features are infinite or too large to lay on a grid", d.Name)
		}
	}

	fitX := mat.DenseCopyOf(xy)
	mean, scale := []float64{0, 0}, []float64{1, 1}
	if standardize {
		mean, scale = standardizeCols(fitX)
	}
	model, err := spec.New(v)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", spec.Name, err)
	}
	task, _ := spec.RunsOn(d.Task)
	clustering := task == datasets.Clustering
	tr := engine.Train{X: fitX, Y: d.Y, Classes: d.Classes, Features: []string{pl.XLabel, pl.YLabel}, Seed: seed}
	if clustering {
		// The known classes only score a clustering: never shown to it.
		tr.Y, tr.Classes, tr.KnownClasses = nil, nil, len(d.Classes)
	}
	if err := engine.Fit(ctx, model, tr, nil); err != nil {
		return nil, fmt.Errorf("model %s on the 2-D map: %w", spec.Name, err)
	}
	pm, ok := model.(engine.Predictor)
	if !ok {
		return nil, fmt.Errorf("model %s does not predict new rows, so it has no regions", spec.Name)
	}
	pp, err := pm.Predict(fitX)
	if err != nil {
		return nil, fmt.Errorf("model %s on the 2-D map: %w", spec.Name, err)
	}
	rm = &RegionMap{Plane: pl, Classes: d.Classes, XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax,
		Pred: make([]int, n)}
	if clustering {
		rm.Classes = nil
	}
	// Class codes index the class names and styles: a prediction that is
	// not one (NaN, fractional, huge) is drawn as unlabelled (-1).
	limit := len(d.Classes)
	if clustering || d.Classes == nil {
		limit = n // a clustering has at most one cluster per row
	}
	for i, p := range pp {
		rm.Pred[i] = classCode(p, limit)
	}
	rm.Support = supportPoints(model, n)
	if d.Y != nil && !clustering { // a cluster is no class: nothing is "misclassified"
		rm.Truth = make([]int, n)
		for i, y := range d.Y {
			rm.Truth[i] = classCode(y, limit)
		}
	}
	cols, rows := size(rm)
	if err := rm.layGrid(cols, rows, true); err != nil {
		return nil, err
	}
	G := rm.gridPoints()
	for i := range cols * rows {
		G.Set(i, 0, (G.At(i, 0)-mean[0])/scale[0])
		G.Set(i, 1, (G.At(i, 1)-mean[1])/scale[1])
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := rm.predictGrid(model, G, limit, d.Classes != nil); err != nil {
		return nil, fmt.Errorf("model %s on the 2-D map: %w", spec.Name, err)
	}
	if rm.Classes == nil { // clustering: name the clusters
		k := 0
		for _, p := range rm.Pred {
			k = max(k, p+1)
		}
		for _, row := range rm.Grid {
			for _, p := range row {
				k = max(k, p+1)
			}
		}
		rm.Classes = make([]string, k)
		for i := range k {
			rm.Classes[i] = fmt.Sprintf("cluster %d", i+1)
		}
	}
	if pl.Projected {
		rm.Title = fmt.Sprintf("first two principal directions (%.0f%% of variance) · regions of %s refit on this 2-D projection of all %d rows",
			100*pl.VarExplained, spec.Title, n)
	} else {
		rm.Title = fmt.Sprintf("%s vs %s · regions of %s refit on all %d rows", pl.YLabel, pl.XLabel, spec.Title, n)
	}
	return rm, nil
}

// layGrid sets the grid of cols x rows cells over the map's bounds, which
// it widens to a square aspect first when square.
func (rm *RegionMap) layGrid(cols, rows int, square bool) error {
	if cols < 2 || rows < 2 {
		return fmt.Errorf("a map needs at least a 2x2 grid, have %dx%d", cols, rows)
	}
	if square {
		rm.XMin, rm.XMax, rm.YMin, rm.YMax = squareAspect(rm.XMin, rm.XMax, rm.YMin, rm.YMax, cols, rows)
	}
	rm.XCenters, rm.YCenters = make([]float64, cols), make([]float64, rows)
	for c := range cols {
		rm.XCenters[c] = rm.XMin + (float64(c)+0.5)*(rm.XMax-rm.XMin)/float64(cols)
	}
	for r := range rows {
		rm.YCenters[r] = rm.YMax - (float64(r)+0.5)*(rm.YMax-rm.YMin)/float64(rows)
	}
	return nil
}

// gridPoints are the grid's cell centres, row by row from the top, one
// point a row of the matrix.
func (rm *RegionMap) gridPoints() *mat.Dense {
	cols, rows := len(rm.XCenters), len(rm.YCenters)
	G := mat.NewDense(cols*rows, 2, nil)
	for r := range rows {
		for c := range cols {
			G.Set(r*cols+c, 0, rm.XCenters[c])
			G.Set(r*cols+c, 1, rm.YCenters[r])
		}
	}
	return G
}

// supportPoints are the rows of the n a model was fitted on that it keeps
// as support vectors, or nil.
func supportPoints(model engine.Model, n int) []int {
	s, ok := model.(engine.SupportVectorer)
	if !ok {
		return nil
	}
	sv := s.SupportVectors()
	if sv == nil {
		return nil
	}
	out := make([]int, 0, len(sv.Rows))
	for _, i := range sv.Rows {
		if i >= 0 && i < n {
			out = append(out, i)
		}
	}
	return out
}

// predictGrid sets the map's Grid (and Conf, when proba and the model
// gives probabilities) from the model's predictions at the grid's points
// G, as the model sees them; class codes at or above limit are -1. A
// two-class margin model gives its decision values instead (Margin), the
// regions their signs: one decision per cell.
func (rm *RegionMap) predictGrid(model engine.Model, G *mat.Dense, limit int, proba bool) error {
	if mg, ok := model.(engine.Marginer); ok && proba && limit == 2 {
		return rm.marginGrid(mg, G)
	}
	pm, ok := model.(engine.Predictor)
	if !ok {
		return errors.New("it does not predict new rows")
	}
	cols, rows := len(rm.XCenters), len(rm.YCenters)
	gp, err := pm.Predict(G)
	if err != nil {
		return err
	}
	if len(gp) != cols*rows {
		return fmt.Errorf("%d predictions for %d points", len(gp), cols*rows)
	}
	rm.Grid = make([][]int, rows)
	for r := range rows {
		rm.Grid[r] = make([]int, cols)
		for c := range cols {
			rm.Grid[r][c] = classCode(gp[r*cols+c], limit)
		}
	}
	if pr, ok := model.(engine.Prober); ok && proba {
		if P, err := pr.PredictProba(G); err == nil && P.RawMatrix().Rows == cols*rows {
			rm.Conf = make([][]float64, rows)
			for r := range rows {
				rm.Conf[r] = make([]float64, cols)
				for c := range cols {
					rm.Conf[r][c] = floats.Max(P.RawRowView(r*cols + c))
				}
			}
		}
	}
	return nil
}

// marginGrid sets the map's Margin to mg's decision values at the grid's
// points G and its Grid to the class each value's sign gives (positive:
// the second class).
func (rm *RegionMap) marginGrid(mg engine.Marginer, G *mat.Dense) error {
	cols, rows := len(rm.XCenters), len(rm.YCenters)
	f, err := mg.Margin(G)
	if err != nil {
		return err
	}
	if len(f) != cols*rows {
		return fmt.Errorf("%d decision values for %d points", len(f), cols*rows)
	}
	rm.Grid, rm.Margin = make([][]int, rows), make([][]float64, rows)
	for r := range rows {
		rm.Grid[r], rm.Margin[r] = make([]int, cols), f[r*cols:(r+1)*cols:(r+1)*cols]
		for c, v := range rm.Margin[r] {
			switch {
			case v > 0:
				rm.Grid[r][c] = 1
			case v <= 0:
				rm.Grid[r][c] = 0
			default: // NaN
				rm.Grid[r][c] = -1
			}
		}
	}
	return nil
}

// squareAspect widens the shorter side of the rectangle about its centre
// so that a grid of cols x rows cells, each twice as tall as wide, shows
// both axes at one scale.
func squareAspect(xmin, xmax, ymin, ymax float64, cols, rows int) (float64, float64, float64, float64) {
	xr, yr := xmax-xmin, ymax-ymin
	want := 2 * xr * float64(rows) / float64(cols) // the y range at the x range's scale
	if want > yr {
		mid := (ymin + ymax) / 2
		return xmin, xmax, mid - want/2, mid + want/2
	}
	wantX := yr * float64(cols) / (2 * float64(rows))
	mid := (xmin + xmax) / 2
	return mid - wantX/2, mid + wantX/2, ymin, ymax
}

// classCode is v as a class index below limit, or -1 when it is not one.
func classCode(v float64, limit int) int {
	if !(v >= 0 && v < float64(limit)) || v != math.Trunc(v) {
		return -1
	}
	return int(v)
}

// pad widens [lo, hi] by 5% on each side (and a degenerate range to width 2).
func pad(lo, hi float64) (float64, float64) {
	if hi-lo < 1e-12 {
		return lo - 1, hi + 1
	}
	m := 0.05 * (hi - lo)
	return lo - m, hi + m
}

// Curve is a regression's fitted function of its one numeric feature:
// model (fitted on rows prepared by prep) evaluated at n evenly spaced
// values over the feature's range, so that a cubic or a sine fit can be
// seen over its points.
func Curve(d *datasets.Dataset, model engine.Model, prep *datasets.Prep, n int) (xs, ys []float64, err error) {
	if len(d.Features) != 1 || d.Features[0].Kind != datasets.Numeric {
		return nil, nil, errors.New("a fitted curve needs exactly one numeric feature")
	}
	pm, ok := model.(engine.Predictor)
	if !ok {
		return nil, nil, errors.New("the model does not predict new rows")
	}
	col := mat.Col(nil, 0, d.X)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range col {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if !(hi > lo) || n < 2 {
		return nil, nil, errors.New("the feature has no range to draw a curve over")
	}
	xs = make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	X := mat.NewDense(n, 1, append([]float64(nil), xs...))
	if prep != nil {
		if X, err = prep.Apply(X); err != nil {
			return nil, nil, err
		}
	}
	if ys, err = pm.Predict(X); err != nil {
		return nil, nil, err
	}
	return xs, ys, nil
}
