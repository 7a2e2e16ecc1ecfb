package lecture

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func runDichoWith(t *testing.T, settings map[string]string) *DichotomiesResult {
	return runTo[DichotomiesResult](t, "dichotomies", settings)
}

// The notes: Π(3) = 8 (3 points shattered), Π(4) = 14 of 16; the two
// labellings halfplanes miss at 4 are one labelling and its complement.
func TestDichotomiesThreeAndFour(t *testing.T) {
	for _, layout := range []string{"general", "convex"} {
		r := runDichoWith(t, map[string]string{"points": "3,4", "layout": layout})
		if len(r.Sets) != 2 {
			t.Fatalf("%d sets", len(r.Sets))
		}
		three, four := r.Sets[0], r.Sets[1]
		if three.Count != 8 || three.All != 8 || len(three.Impossible) != 0 {
			t.Errorf("%s n=3: %d of %d, impossible %v", layout, three.Count, three.All, three.Impossible)
		}
		if four.Count != 14 || four.Cover != 14 || four.All != 16 || len(four.ImpossibleMasks) != 2 || four.ImpossiblePairs != 1 {
			t.Errorf("%s n=4: %d (Cover %d) of %d, impossible %v", layout, four.Count, four.Cover, four.All, four.Impossible)
		}
		if a, b := four.ImpossibleMasks[0], four.ImpossibleMasks[1]; a|b != 15 || a&b != 0 {
			t.Errorf("%s n=4: impossible %v are not complements", layout, four.Impossible)
		}
		if layout == "convex" { // on a circle the missed labelling is a diagonal pair: XOR
			if got := four.Impossible[0]; len(got) != 2 || got[1]-got[0] != 2 {
				t.Errorf("convex n=4: impossible %v, want a diagonal {0, 2} or {1, 3}", four.Impossible)
			}
		}
	}
}

// Cover's count 2(1 + (n−1) + C(n−1, 2)) holds for every n = 1..8 in
// general position (several seeds) and on a circle.
func TestDichotomiesCover(t *testing.T) {
	want := []int{2, 4, 8, 14, 22, 32, 44, 58} // 2 Σ_{i≤2} C(n−1, i), by hand
	for seed := 1; seed <= 6; seed++ {
		for _, layout := range []string{"general", "convex"} {
			r := runDichoWith(t, map[string]string{"points": "1..8", "layout": layout, "seed": strconv.Itoa(seed)})
			for _, s := range r.Sets {
				if s.Cover != want[s.N-1] || s.Count != s.Cover || s.Count+len(s.ImpossibleMasks) != s.All || len(s.Dichotomies) != s.Count {
					t.Errorf("%s seed %d n=%d: %d dichotomies, Cover %d (want %d), %d impossible of %d", layout, seed, s.N, s.Count, s.Cover, want[s.N-1], len(s.ImpossibleMasks), s.All)
				}
			}
		}
	}
}

// n collinear points have 2n dichotomies: a threshold along the line,
// either way round.
func TestDichotomiesCollinear(t *testing.T) {
	r := runDichoWith(t, map[string]string{"points": "1..8", "layout": "collinear"})
	for _, s := range r.Sets {
		if s.Count != 2*s.N {
			t.Errorf("n=%d collinear: %d dichotomies, want %d", s.N, s.Count, 2*s.N)
		}
		for _, d := range s.Dichotomies { // each a prefix or a suffix along the line
			for k := 1; k < len(d); k++ {
				if d[k] != d[k-1]+1 {
					t.Errorf("n=%d: %v is not a run of neighbours", s.N, d)
				}
			}
			if len(d) > 0 && d[0] != 0 && d[len(d)-1] != s.N-1 {
				t.Errorf("n=%d: %v is neither a prefix nor a suffix", s.N, d)
			}
		}
	}
}

// Soundness, independently: every labelling a random line makes (none of
// the points within 1e-9 of it) is among the enumerated ones.
func TestDichotomiesRandomLinesAreEnumerated(t *testing.T) {
	r := runDichoWith(t, map[string]string{"points": "5,8", "seed": "3"})
	rng := rand.New(rand.NewPCG(9, 9))
	for _, s := range r.Sets {
		made := map[int]bool{}
		for _, m := range s.Masks {
			made[m] = true
		}
		for range 20000 {
			a := rng.Float64() * 2 * math.Pi
			nx, ny := math.Cos(a), math.Sin(a)
			c := (rng.Float64()*1.6 - 0.3) * 1000
			m := 0
			for i, p := range s.Points {
				if nx*p[0]+ny*p[1] > c {
					m |= 1 << i
				}
			}
			if !made[m] {
				t.Fatalf("n=%d: a line makes %b, not enumerated", s.N, m)
			}
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

// The same seed draws the same points; points stay in [0, 1000]².
func TestDichotomiesSeeded(t *testing.T) {
	a := runDichoWith(t, map[string]string{"points": "8", "seed": "42"})
	b := runDichoWith(t, map[string]string{"points": "8", "seed": "42"})
	for i, p := range a.Sets[0].Points {
		if p != b.Sets[0].Points[i] || p[0] < 0 || p[0] > 1000 || p[1] < 0 || p[1] > 1000 {
			t.Fatalf("point %d: %v, %v", i, p, b.Sets[0].Points[i])
		}
	}
}

// Every dichotomy but the empty set and all points has a drawn line, and
// that line does separate it, with the margin it claims.
func TestDichotomiesWitnessLines(t *testing.T) {
	for _, layout := range []string{"general", "convex", "collinear"} {
		for seed := 1; seed <= 4; seed++ {
			r := runDichoWith(t, map[string]string{"points": "1..8", "layout": layout, "seed": strconv.Itoa(seed)})
			for _, s := range r.Sets {
				if len(s.Lines) != s.Count {
					t.Fatalf("%s n=%d: %d lines for %d dichotomies", layout, s.N, len(s.Lines), s.Count)
				}
				for d, l := range s.Lines {
					m := s.Masks[d]
					if m == 0 || m == s.All-1 {
						if l != nil {
							t.Errorf("%s n=%d: a line for the trivial %v", layout, s.N, s.Dichotomies[d])
						}
						continue
					}
					if l == nil {
						t.Errorf("%s seed %d n=%d: no line found for %v", layout, seed, s.N, s.Dichotomies[d])
						continue
					}
					for i, p := range s.Points {
						x := l.Normal[0]*p[0] + l.Normal[1]*p[1] - l.Offset
						if in := m>>i&1 == 1; in != (x > 0) || math.Abs(x) < l.Margin-1e-9 {
							t.Errorf("%s n=%d %v: point %d at %g from its line (margin %g)", layout, s.N, s.Dichotomies[d], i, x, l.Margin)
						}
					}
				}
			}
		}
	}
}
