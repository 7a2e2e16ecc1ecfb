package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/tealab/tealab/numfmt"
	"gonum.org/v1/gonum/mat"
)

// Knob is one setting of a synthetic generator. Ranges are inclusive.
type Knob struct {
	Name    string
	Default float64
	Min     float64
	Max     float64
	Int     bool // the value must be a whole number
	Help    string
}

// genPCGStream is the second PCG word of every generator's random source, so
// that a seed alone fixes the data.
const genPCGStream = 0x7ea1ab_6e6e

// maxGenRows caps n so that a typo cannot ask for gigabytes.
const maxGenRows = 1_000_000

// maxSeed keeps seeds exactly representable as float64 knob values.
const maxSeed = 1 << 53

// generator describes one synthetic data set: its knobs and how to draw it.
type generator struct {
	name    string
	summary string
	task    Task
	knobs   []Knob
	aliases map[string]string // other spellings of a knob -> its name
	// dims is the number of feature columns for the resolved knobs.
	dims func(v map[string]float64) int
	// classes is the number of classes (classification only).
	classes func(v map[string]float64) int
	// check validates relations between knobs (after each is in range).
	check func(v map[string]float64) error
	// draw fills data (n rows of dims features then the target, row-major).
	draw func(v map[string]float64, r *rand.Rand, n, d int, data []float64)
}

func knobN(def float64) Knob {
	return Knob{Name: "n", Default: def, Min: 2, Max: maxGenRows, Int: true, Help: "number of rows"}
}

func knobNoise(def, maxv float64, help string) Knob {
	return Knob{Name: "noise", Default: def, Min: 0, Max: maxv, Help: help}
}

var knobSeed = Knob{Name: "seed", Default: 1, Min: 0, Max: maxSeed, Int: true, Help: "random seed: the same seed gives the same data"}

func twoDims(map[string]float64) int    { return 2 }
func oneDim(map[string]float64) int     { return 1 }
func twoClasses(map[string]float64) int { return 2 }

// generators lists the toy problems in the order the catalogue shows them.
var generators = []*generator{
	{
		name:    "xor",
		summary: "XOR: four noisy clusters at the corners of the unit square, opposite corners share a class (Shewchuk, Concise Machine Learning, lecture 17)",
		task:    Classification,
		knobs: []Knob{knobN(200), knobNoise(0.15, 5, "standard deviation of the Gaussian noise around each corner"),
			knobSeed},
		dims: twoDims, classes: twoClasses,
		draw: drawXOR,
	},
	{
		name:    "moons",
		summary: "two interleaving half circles (scikit-learn's make_moons)",
		task:    Classification,
		knobs:   []Knob{knobN(200), knobNoise(0.1, 5, "standard deviation of the Gaussian noise added to each coordinate"), knobSeed},
		dims:    twoDims, classes: twoClasses,
		draw: drawMoons,
	},
	{
		name:    "circles",
		summary: "a small circle inside a large one (scikit-learn's make_circles)",
		task:    Classification,
		knobs: []Knob{knobN(200), knobNoise(0.05, 5, "standard deviation of the Gaussian noise added to each coordinate"),
			{Name: "factor", Default: 0.5, Min: 0.01, Max: 0.99, Help: "radius of the inner circle relative to the outer one"},
			knobSeed},
		dims: twoDims, classes: twoClasses,
		draw: drawCircles,
	},
	{
		name:    "spirals",
		summary: "k interleaved spiral arms, one class each (Shewchuk, Concise Machine Learning, lecture 15, the 4-class spiral)",
		task:    Classification,
		knobs: []Knob{knobN(400),
			{Name: "k", Default: 4, Min: 2, Max: 20, Int: true, Help: "number of arms (classes)"},
			knobNoise(0.03, 5, "standard deviation of the Gaussian noise added to each coordinate"),
			knobSeed},
		aliases: map[string]string{"classes": "k"},
		dims:    twoDims,
		classes: func(v map[string]float64) int { return int(v["k"]) },
		check:   checkNAtLeast("k"),
		draw:    drawSpirals,
	},
	{
		name:    "blobs",
		summary: "isotropic Gaussian blobs, one class each (Shewchuk, Concise Machine Learning, lectures 6-9; scikit-learn's make_blobs)",
		task:    Classification,
		knobs: []Knob{knobN(300),
			{Name: "centers", Default: 3, Min: 2, Max: 50, Int: true, Help: "number of blobs (classes)"},
			{Name: "dims", Default: 2, Min: 1, Max: 1000, Int: true, Help: "number of features"},
			knobNoise(1, 20, "standard deviation of each blob (centres lie in [-10, 10] per feature)"),
			knobSeed},
		aliases: map[string]string{"k": "centers", "classes": "centers", "d": "dims"},
		dims:    func(v map[string]float64) int { return int(v["dims"]) },
		classes: func(v map[string]float64) int { return int(v["centers"]) },
		check:   checkNAtLeast("centers"),
		draw:    drawBlobs,
	},
	{
		name:    "margin",
		summary: "linearly separable classes with a chosen margin; noise flips labels (Shewchuk, Concise Machine Learning, lectures 3-4, 11)",
		task:    Classification,
		knobs: []Knob{knobN(200),
			{Name: "dims", Default: 2, Min: 1, Max: 1000, Int: true, Help: "number of features"},
			{Name: "margin", Default: 0.1, Min: 0, Max: 2, Help: "distance from the separating hyperplane to the nearest point"},
			knobNoise(0, 0.5, "fraction of labels flipped (0 keeps the classes separable)"),
			knobSeed},
		aliases: map[string]string{"d": "dims"},
		dims:    func(v map[string]float64) int { return int(v["dims"]) },
		classes: twoClasses,
		draw:    drawMargin,
	},
	{
		name:    "cubic",
		summary: "noisy cubic y = x^3 - 3x on [-2, 2], for polynomial over- and underfitting (Shewchuk, Concise Machine Learning, lecture 11)",
		task:    Regression,
		knobs:   []Knob{knobN(100), knobNoise(0.5, 20, "standard deviation of the Gaussian noise added to y"), knobSeed},
		dims:    oneDim,
		draw:    drawCubic,
	},
	{
		name:    "sine",
		summary: "noisy sine wave y = sin(x) on [0, 2pi], the bias-variance example (Shewchuk, Concise Machine Learning, lecture 12)",
		task:    Regression,
		knobs:   []Knob{knobN(100), knobNoise(0.2, 20, "standard deviation of the Gaussian noise added to y"), knobSeed},
		dims:    oneDim,
		draw:    drawSine,
	},
}

func checkNAtLeast(knob string) func(v map[string]float64) error {
	return func(v map[string]float64) error {
		if v["n"] < v[knob] {
			return fmt.Errorf("n=%g is smaller than %s=%g: every class needs a row", v["n"], knob, v[knob])
		}
		return nil
	}
}

func findGenerator(name string) *generator {
	for _, g := range generators {
		if g.name == name {
			return g
		}
	}
	return nil
}

func generatorNames() []string {
	names := make([]string, len(generators))
	for i, g := range generators {
		names[i] = g.name
	}
	return names
}

// Generate draws a synthetic data set. knobs may be nil or partial: missing
// knobs take their defaults (see Catalog for each generator's knobs and
// ranges). The same knobs, seed included, give the same table bit for bit.
// Features are x0, x1, ...; classification sets end with a nominal column
// "class" (levels "0", "1", ...) and their rows are shuffled; regression sets
// end with a numeric column "y".
func Generate(name string, knobs map[string]float64) (*Table, error) {
	g := findGenerator(name)
	if g == nil {
		return nil, fmt.Errorf("unknown generator %q (valid: %s)", name, strings.Join(generatorNames(), ", "))
	}
	v, err := g.resolve(knobs)
	if err != nil {
		return nil, err
	}
	n := int(v["n"])
	d := g.dims(v)
	r := rand.New(rand.NewPCG(uint64(v["seed"]), genPCGStream))
	data := make([]float64, n*(d+1))
	g.draw(v, r, n, d, data)

	cols := make([]Column, d+1)
	for j := 0; j < d; j++ {
		cols[j] = Column{Name: "x" + strconv.Itoa(j), Kind: Numeric}
	}
	if g.task == Classification {
		k := g.classes(v)
		levels := make([]string, k)
		for c := range levels {
			levels[c] = strconv.Itoa(c)
		}
		cols[d] = Column{Name: "class", Kind: Nominal, Levels: levels}
		shuffleRows(r, data, d+1)
	} else {
		cols[d] = Column{Name: "y", Kind: Numeric}
	}
	return &Table{
		Name:    g.name,
		Source:  g.describe(v),
		Columns: cols,
		Data:    mat.NewDense(n, d+1, data),
	}, nil
}

// resolve fills in defaults and validates every knob.
func (g *generator) resolve(knobs map[string]float64) (map[string]float64, error) {
	v := make(map[string]float64, len(g.knobs))
	for _, k := range g.knobs {
		v[k.Name] = k.Default
	}
	// Sorted so that the first bad knob reported does not depend on map order.
	names := make([]string, 0, len(knobs))
	for name := range knobs {
		names = append(names, name)
	}
	sort.Strings(names)
	set := map[string]string{}
	for _, name := range names {
		canon := name
		if a, ok := g.aliases[name]; ok {
			canon = a
		}
		k := g.knob(canon)
		if k == nil {
			return nil, fmt.Errorf("%s: unknown knob %q (valid: %s)", g.name, name, g.knobNames())
		}
		if prev, dup := set[canon]; dup {
			return nil, fmt.Errorf("%s: knob %s given twice (as %q and %q)", g.name, canon, prev, name)
		}
		set[canon] = name
		x := knobs[name]
		if !(x >= k.Min && x <= k.Max) {
			return nil, fmt.Errorf("%s: knob %s=%v is out of range [%s, %s] (%s)", g.name, name, x, numfmt.Bound(k.Min), numfmt.Bound(k.Max), k.Help)
		}
		if k.Int && x != math.Trunc(x) {
			return nil, fmt.Errorf("%s: knob %s=%g must be a whole number (%s)", g.name, name, x, k.Help)
		}
		v[canon] = x
	}
	if g.check != nil {
		if err := g.check(v); err != nil {
			return nil, fmt.Errorf("%s: %w", g.name, err)
		}
	}
	if rows, d := int(v["n"]), g.dims(v); rows*(d+1) > 50_000_000 {
		return nil, fmt.Errorf("%s: n=%d rows of %d features is too large (at most 50 million values)", g.name, rows, d)
	}
	return v, nil
}

func (g *generator) knob(name string) *Knob {
	for i := range g.knobs {
		if g.knobs[i].Name == name {
			return &g.knobs[i]
		}
	}
	return nil
}

func (g *generator) knobNames() string {
	names := make([]string, len(g.knobs))
	for i, k := range g.knobs {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// describe spells the generator and all its knobs, e.g.
// "moons(n=200, noise=0.1, seed=1)".
func (g *generator) describe(v map[string]float64) string {
	var b strings.Builder
	b.WriteString(g.name)
	b.WriteByte('(')
	for i, k := range g.knobs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Name)
		b.WriteByte('=')
		b.WriteString(formatKnob(k, v[k.Name]))
	}
	b.WriteByte(')')
	return b.String()
}

func formatKnob(k Knob, x float64) string {
	if k.Int {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// shuffleRows permutes the rows of a row-major matrix in place (Fisher-Yates).
func shuffleRows(r *rand.Rand, data []float64, stride int) {
	n := len(data) / stride
	tmp := make([]float64, stride)
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		if i != j {
			a, b := data[i*stride:(i+1)*stride], data[j*stride:(j+1)*stride]
			copy(tmp, a)
			copy(a, b)
			copy(b, tmp)
		}
	}
}

// linspace returns the i-th of m evenly spaced points from lo to hi
// (hi included when endpoint, as numpy.linspace).
func linspace(lo, hi float64, i, m int, endpoint bool) float64 {
	div := m
	if endpoint {
		div = m - 1
	}
	if div <= 0 {
		return lo
	}
	return lo + (hi-lo)*float64(i)/float64(div)
}

// drawXOR: the XOR truth table of Shewchuk, Concise Machine Learning, lecture
// 17, with Gaussian noise. Row i sits at
// corner i mod 4, so the classes are balanced.
func drawXOR(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	s := v["noise"]
	for i := 0; i < n; i++ {
		a, b := float64(i&1), float64((i>>1)&1)
		row := data[i*(d+1) : (i+1)*(d+1)]
		row[0] = a + s*r.NormFloat64()
		row[1] = b + s*r.NormFloat64()
		if a != b {
			row[2] = 1
		}
	}
}

// drawMoons follows scikit-learn's make_moons: n/2 points on the upper unit
// half circle (class 0) and the rest on a lower half circle shifted by
// (1, -0.5) (class 1), each coordinate plus N(0, noise²).
func drawMoons(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	s := v["noise"]
	nOut := n / 2
	nIn := n - nOut
	for i := 0; i < n; i++ {
		row := data[i*(d+1) : (i+1)*(d+1)]
		if i < nOut {
			t := linspace(0, math.Pi, i, nOut, true)
			row[0], row[1] = math.Cos(t), math.Sin(t)
		} else {
			t := linspace(0, math.Pi, i-nOut, nIn, true)
			row[0], row[1], row[2] = 1-math.Cos(t), 1-math.Sin(t)-0.5, 1
		}
		row[0] += s * r.NormFloat64()
		row[1] += s * r.NormFloat64()
	}
}

// drawCircles follows scikit-learn's make_circles: n/2 points on the unit
// circle (class 0) and the rest on a circle of radius factor (class 1).
func drawCircles(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	s, f := v["noise"], v["factor"]
	nOut := n / 2
	nIn := n - nOut
	for i := 0; i < n; i++ {
		row := data[i*(d+1) : (i+1)*(d+1)]
		if i < nOut {
			t := linspace(0, 2*math.Pi, i, nOut, false)
			row[0], row[1] = math.Cos(t), math.Sin(t)
		} else {
			t := linspace(0, 2*math.Pi, i-nOut, nIn, false)
			row[0], row[1], row[2] = f*math.Cos(t), f*math.Sin(t), 1
		}
		row[0] += s * r.NormFloat64()
		row[1] += s * r.NormFloat64()
	}
}

// spiralTurns is how far each arm winds, in turns.
const spiralTurns = 1.5

// drawSpirals draws k arms r(s) = 0.05 + 0.95s, θ(s) = 2πj/k + 2π·1.5·s for
// s evenly spaced in (0, 1); row i belongs to arm i mod k.
func drawSpirals(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	k := int(v["k"])
	s := v["noise"]
	for i := 0; i < n; i++ {
		j := i % k
		q := i / k
		m := n / k // rows on arm j
		if j < n%k {
			m++
		}
		t := (float64(q) + 0.5) / float64(m)
		rad := 0.05 + 0.95*t
		th := 2*math.Pi*float64(j)/float64(k) + 2*math.Pi*spiralTurns*t
		row := data[i*(d+1) : (i+1)*(d+1)]
		row[0] = rad*math.Cos(th) + s*r.NormFloat64()
		row[1] = rad*math.Sin(th) + s*r.NormFloat64()
		row[2] = float64(j)
	}
}

// drawBlobs follows scikit-learn's make_blobs: centres uniform in
// [-10, 10]^dims, n/centers rows each (the first n mod centers blobs get one
// more), each row its centre plus N(0, noise²) per feature.
func drawBlobs(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	k := int(v["centers"])
	s := v["noise"]
	centers := make([]float64, k*d)
	for i := range centers {
		centers[i] = -10 + 20*r.Float64()
	}
	i := 0
	for c := 0; c < k; c++ {
		m := n / k
		if c < n%k {
			m++
		}
		for ; m > 0; m-- {
			row := data[i*(d+1) : (i+1)*(d+1)]
			for j := 0; j < d; j++ {
				row[j] = centers[c*d+j] + s*r.NormFloat64()
			}
			row[d] = float64(c)
			i++
		}
	}
}

// drawMargin draws points uniform in [-1, 1]^dims on either side of a random
// hyperplane through the origin, then moves each one margin further from it,
// so that no point lies closer than margin (Shewchuk, Concise Machine Learning, lecture 3: the margin of a
// separable set). Classes alternate, so they are balanced. Then round(noise·n)
// labels, chosen at random, are flipped.
func drawMargin(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	m := v["margin"]
	w := marginNormal(r, d)
	for i := 0; i < n; i++ {
		row := data[i*(d+1) : (i+1)*(d+1)]
		x := row[:d]
		var s float64
		for j := range x {
			x[j] = -1 + 2*r.Float64()
			s += x[j] * w[j]
		}
		pos := i%2 == 1
		// The box is symmetric about the origin, so x -> -x moves a point to
		// the other side and keeps each side uniform.
		if (s >= 0) != pos {
			for j := range x {
				x[j] = -x[j]
			}
		}
		shift := -m
		if pos {
			shift = m
			row[d] = 1
		}
		for j := range x {
			x[j] += shift * w[j]
		}
	}
	flips := int(math.Round(v["noise"] * float64(n)))
	for _, i := range r.Perm(n)[:flips] {
		row := data[i*(d+1) : (i+1)*(d+1)]
		row[d] = 1 - row[d]
	}
}

// marginNormal draws the unit normal of drawMargin's hyperplane: the first
// draws of the generator's random source, so tests can recover it.
func marginNormal(r *rand.Rand, d int) []float64 {
	w := make([]float64, d)
	for {
		var norm float64
		for j := range w {
			w[j] = r.NormFloat64()
			norm += w[j] * w[j]
		}
		if norm = math.Sqrt(norm); norm > 0 {
			for j := range w {
				w[j] /= norm
			}
			return w
		}
	}
}

// drawCubic: x uniform in [-2, 2], y = x³ - 3x + N(0, noise²) (Shewchuk, Concise Machine Learning, lectures 11,
// "samples from a degree-3 curve plus noise").
func drawCubic(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	s := v["noise"]
	for i := 0; i < n; i++ {
		x := -2 + 4*r.Float64()
		data[2*i] = x
		data[2*i+1] = x*x*x - 3*x + s*r.NormFloat64()
	}
}

// drawSine: x uniform in [0, 2π], y = sin x + N(0, noise²) (Shewchuk, Concise Machine Learning, lectures 12, the
// sine wave fitted by lines).
func drawSine(v map[string]float64, r *rand.Rand, n, d int, data []float64) {
	s := v["noise"]
	for i := 0; i < n; i++ {
		x := 2 * math.Pi * r.Float64()
		data[2*i] = x
		data[2*i+1] = math.Sin(x) + s*r.NormFloat64()
	}
}
