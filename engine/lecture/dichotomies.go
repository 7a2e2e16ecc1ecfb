package lecture

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/tealab/tealab/engine"
)

// The dichotomies of a few points in the plane by halfplanes: Shewchuk's
// lecture 23 counts Π(3) = 8 and Π(4) = 14 (of 16), so halfplanes shatter
// 3 points but not 4 (VC dimension 3), and Cover's theorem gives
// Π(n) = 2 Σ_{i=0}^{2} C(n−1, i) for points in general position.

// DichotomiesResult is the run: one point set per count of points.
type DichotomiesResult struct {
	Layout string         `json:"layout"` // general, convex, collinear
	Seed   int            `json:"seed"`
	Sets   []DichotomySet `json:"sets"`
}

// DichotomySet is one point set and the labellings halfplanes make of it.
type DichotomySet struct {
	N      int          `json:"n"`
	Points [][2]float64 `json:"points"` // whole numbers in [0, 1000]
	// Dichotomies are the subsets S (sorted indices, the empty set
	// included) that a line separates strictly from the rest, by size and
	// then lexicographically; Masks are the same as bitmasks (bit i: point i).
	Dichotomies [][]int `json:"dichotomies"`
	Masks       []int   `json:"masks"`
	// Lines are, dichotomy by dichotomy, a line that makes it, the widest
	// apart of 3600 directions; null for the empty set and all points
	// (any line off to the side) and where no direction tried separates.
	Lines []*DichoLine `json:"lines"`
	Count int          `json:"count"`
	Cover int          `json:"cover"` // 2 Σ_{i=0}^{2} C(n−1, i)
	All   int          `json:"all"`   // 2^n
	// Impossible are the labellings no halfplane makes, as Dichotomies;
	// ImpossiblePairs counts them up to complement.
	Impossible      [][]int `json:"impossible"`
	ImpossibleMasks []int   `json:"impossible_masks"`
	ImpossiblePairs int     `json:"impossible_up_to_complement"`
}

// DichoLine is the line Normal·x = Offset: the dichotomy's points lie on
// the side Normal·x > Offset, the rest below, each at least Margin from it.
type DichoLine struct {
	Normal [2]float64 `json:"normal"` // unit length
	Offset float64    `json:"offset"`
	Margin float64    `json:"margin"`
}

// dichoMargin is the least distance, in grid units of [0, 1000]², from a
// point of a general layout to the line through any two others.
const dichoMargin = 20

var dichoPoints = ListKnob("points", "3,4", "how many points: a point set of each size", 1, 8, true, false)

func init() {
	Register(Experiment{
		Name:    "dichotomies",
		Title:   "dichotomies of points by halfplanes",
		Summary: "every labelling of n points in the plane that a line can separate, counted against Cover's 2 Σ C(n−1, i) and 2^n: halfplanes shatter 3 points but not 4",
		Source:  "Shewchuk, Concise Machine Learning, lecture 23 (dichotomies, shatter function, Cover's theorem, VC dimension)",
		Knobs: []engine.Param{
			dichoPoints,
			{Name: "layout", Kind: engine.Choice, Default: "convex", Choices: []string{"general", "convex", "collinear"},
				Help:   "where the points lie: general position (seeded), on a circle, or on a line",
				Detail: "general: whole-number points in [0, 1000]² drawn from the seed, each redrawn until it lies at least 20 from the line through any two others; convex: evenly round a circle; collinear: evenly along a sloped line"},
			seedWhen(&engine.Applies{Param: "layout", In: []string{"general"}}),
		},
		Run:    runDichotomies,
		Decode: DecodeAs[DichotomiesResult],
	})
}

// DichoCover is Cover's count 2 Σ_{i=0}^{2} C(n−1, i) of the dichotomies
// of n points in general position in the plane.
func DichoCover(n int) int {
	m := n - 1
	return 2 * (1 + m + m*(m-1)/2)
}

// dichoLayout places n points with whole coordinates, so that the
// orientation tests below are exact.
func dichoLayout(layout string, n int, seed uint64) [][2]int64 {
	pts := make([][2]int64, 0, n)
	switch layout {
	case "convex":
		for i := range n {
			a := 2*math.Pi*float64(i)/float64(n) + 0.3
			pts = append(pts, [2]int64{int64(math.Round(500 + 450*math.Cos(a))), int64(math.Round(500 + 450*math.Sin(a)))})
		}
	case "collinear":
		step := int64(800/max(n-1, 1)) / 4 * 4 // a multiple of 4: exactly on the line of slope 3/4
		for i := range int64(n) {
			pts = append(pts, [2]int64{100 + step*i, 200 + step*3/4*i})
		}
	default:
		r := rand.New(rand.NewPCG(seed, 0xd1c0))
		for len(pts) < n {
			p := [2]int64{r.Int64N(1001), r.Int64N(1001)}
			if dichoClear(pts, p) {
				pts = append(pts, p)
			}
		}
	}
	return pts
}

// dichoClear says p keeps a general layout general: at least dichoMargin
// from every line through two of pts, and from each of them.
func dichoClear(pts [][2]int64, p [2]int64) bool {
	for i, a := range pts {
		dx, dy := float64(p[0]-a[0]), float64(p[1]-a[1])
		if math.Hypot(dx, dy) < dichoMargin {
			return false
		}
		for _, b := range pts[:i] {
			// distances of p from line ab, of a from pb and of b from pa
			for _, t := range [][3][2]int64{{a, b, p}, {p, b, a}, {p, a, b}} {
				l := math.Hypot(float64(t[1][0]-t[0][0]), float64(t[1][1]-t[0][1]))
				if math.Abs(float64(dichoCross(t[0], t[1], t[2])))/l < dichoMargin {
					return false
				}
			}
		}
	}
	return true
}

// dichoCross is (b − a) × (c − a): positive when c is left of a→b.
func dichoCross(a, b, c [2]int64) int64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// DichoEnumerate is the set of masks S that a line separates strictly
// from the rest. Every such dichotomy with both sides nonempty is made by
// a line through two of the points, moved a little: slide a separating
// line until it meets a point, turn it about that point until it meets
// another. Nudged, the line keeps every point off it on its side, and
// sends the points on it (ordered along it) before a threshold to one
// side and after it to the other — every threshold and both ways are
// candidates, and each is realised. Orientations are exact (whole
// coordinates).
func DichoEnumerate(pts [][2]int64) []int {
	n := len(pts)
	all := 1<<n - 1
	seen := map[int]bool{0: true, all: true}
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := pts[i], pts[j]
			left := 0
			var on []int
			for k, c := range pts {
				switch x := dichoCross(a, b, c); {
				case x > 0:
					left |= 1 << k
				case x == 0:
					on = append(on, k)
				}
			}
			d := [2]int64{b[0] - a[0], b[1] - a[1]}
			sort.Slice(on, func(u, v int) bool {
				pu, pv := pts[on[u]], pts[on[v]]
				return d[0]*pu[0]+d[1]*pu[1] < d[0]*pv[0]+d[1]*pv[1]
			})
			for cut := 0; cut <= len(on); cut++ {
				var before, after int
				for t, k := range on {
					if t < cut {
						before |= 1 << k
					} else {
						after |= 1 << k
					}
				}
				for _, s := range []int{left | before, left | after} {
					seen[s], seen[all&^s] = true, true
				}
			}
		}
	}
	out := make([]int, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	dichoSort(out)
	return out
}

// dichoSort orders masks by size, then by their sorted indices.
func dichoSort(ms []int) {
	slices.SortFunc(ms, func(a, b int) int {
		if ca, cb := bits.OnesCount(uint(a)), bits.OnesCount(uint(b)); ca != cb {
			return ca - cb
		}
		return slices.Compare(dichoIndices(a), dichoIndices(b))
	})
}

func dichoIndices(m int) []int {
	out := []int{}
	for i := 0; m>>i != 0; i++ {
		if m>>i&1 == 1 {
			out = append(out, i)
		}
	}
	return out
}

// dichoWitness is a line that separates mask m from the rest of pts, the
// one whose margin is largest over 3600 directions of its normal: what the
// picture draws. Nil for an empty or full mask, or when no direction
// tried separates (the enumeration, not this search, decides what is a
// dichotomy).
func dichoWitness(pts [][2]float64, m int) *DichoLine {
	if m == 0 || m == 1<<len(pts)-1 {
		return nil
	}
	var best *DichoLine
	const dirs = 3600
	for a := range dirs {
		t := 2 * math.Pi * float64(a) / dirs
		nx, ny := math.Cos(t), math.Sin(t)
		lo, hi := math.Inf(1), math.Inf(-1) // least in, greatest out
		for i, p := range pts {
			x := nx*p[0] + ny*p[1]
			if m>>i&1 == 1 {
				lo = math.Min(lo, x)
			} else {
				hi = math.Max(hi, x)
			}
		}
		if gap := (lo - hi) / 2; gap > 0 && (best == nil || gap > best.Margin) {
			best = &DichoLine{Normal: [2]float64{nx, ny}, Offset: (lo + hi) / 2, Margin: gap}
		}
	}
	return best
}

func dichoSet(pts [][2]int64) DichotomySet {
	n := len(pts)
	s := DichotomySet{N: n, Cover: DichoCover(n), All: 1 << n, Masks: DichoEnumerate(pts)}
	for _, p := range pts {
		s.Points = append(s.Points, [2]float64{float64(p[0]), float64(p[1])})
	}
	made := map[int]bool{}
	for _, m := range s.Masks {
		made[m] = true
		s.Dichotomies = append(s.Dichotomies, dichoIndices(m))
		s.Lines = append(s.Lines, dichoWitness(s.Points, m))
	}
	s.Count = len(s.Masks)
	s.ImpossibleMasks = []int{}
	s.Impossible = [][]int{}
	for m := range s.All {
		if !made[m] {
			s.ImpossibleMasks = append(s.ImpossibleMasks, m)
			if m < (s.All-1)&^m {
				s.ImpossiblePairs++
			}
		}
	}
	dichoSort(s.ImpossibleMasks)
	for _, m := range s.ImpossibleMasks {
		s.Impossible = append(s.Impossible, dichoIndices(m))
	}
	return s
}

func runDichotomies(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	ns := Ints(v, dichoPoints)
	if len(ns) > 8 {
		return nil, engine.Limitf("%d point sets; give at most 8 sizes in points", len(ns))
	}
	res := DichotomiesResult{Layout: v.String("layout"), Seed: v.Int("seed")}
	for i, n := range ns {
		if err := ctx.Err(); err != nil {
			return &res, err
		}
		// each set drawn from the seed and its size alone
		pts := dichoLayout(res.Layout, n, uint64(res.Seed)*16+uint64(n))
		next := res
		next.Sets = append(slices.Clone(res.Sets), dichoSet(pts))
		res = next
		show(Frame{Result: &next, Done: i + 1, Total: len(ns)})
	}
	return &res, nil
}
