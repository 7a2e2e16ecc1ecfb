package tree

import (
	"cmp"
	"math"
	"slices"
)

// bestNumeric sweeps feature f's sorted rows of the node, moving one row at
// a time from right to left and updating the children's impurity in O(1)
// (O(k) for misclassification), and records a better split in best. It
// reports whether the feature could split the node at all.
func (g *grower) bestNumeric(w []float64, f int, sg segment, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	o := g.ord[f][sg.s:sg.e]
	rk := g.rank[f][sg.s:sg.e] // rk[j] is the rank of row o[j]'s value
	m := len(o)
	for m > 0 && rk[m-1] == missingRank {
		m--
	}
	if m < 2 || rk[0] == rk[m-1] {
		return false
	}
	nMiss := len(o) - m
	minLeaf := cfg.minLeaf
	if d.k == 0 {
		return g.sweepRegression(w, f, o, rk, m, nMiss, W, best)
	}
	k := d.k
	left, right, miss := g.left, g.right, g.miss
	clear(left)
	copy(right, g.tot)
	clear(miss)
	wMiss := 0.0
	for _, r := range o[m:] {
		miss[d.y[r]] += w[r]
		right[d.y[r]] -= w[r]
		wMiss += w[r]
	}
	var WL, WR = 0.0, W - wMiss
	// Running sums for the O(1) updates.
	var sqL, sqR, xlL, xlR float64 // Σ w_c² and Σ w_c ln w_c of each side
	for _, v := range right {
		sqR += v * v
		if v > 0 {
			xlR += v * math.Log(v)
		}
	}
	crit := cfg.criterion
	if crit == Gini && nMiss == 0 {
		return g.sweepGini(w, f, o[:m], rk[:m], W, sqR, best)
	}
	found := false
	for j := 0; j < m-1; j++ {
		r := o[j]
		c, wr := d.y[r], w[r]
		switch crit {
		case Entropy:
			if left[c] > 0 {
				xlL -= left[c] * math.Log(left[c])
			}
			if right[c] > 0 {
				xlR -= right[c] * math.Log(right[c])
			}
		case Gini:
			sqL += 2*wr*left[c] + wr*wr
			sqR += -2*wr*right[c] + wr*wr
		}
		left[c] += wr
		right[c] -= wr
		if right[c] < 1e-12*W {
			right[c] = 0
		}
		if crit == Entropy {
			xlL += left[c] * math.Log(left[c])
			if right[c] > 0 {
				xlR += right[c] * math.Log(right[c])
			}
		}
		WL += wr
		WR -= wr
		if rk[j+1] == rk[j] {
			continue // equal values cannot be separated
		}
		nL, nR := j+1, m-j-1
		missLeft := WL > WR
		if nMiss > 0 {
			if missLeft {
				nL += nMiss
			} else {
				nR += nMiss
			}
		}
		if nL < minLeaf || nR < minLeaf {
			continue
		}
		var cost float64
		if nMiss > 0 {
			cost = g.costWithMissing(left, right, miss, WL, WR, wMiss, missLeft, k)
		} else {
			switch crit {
			case Entropy:
				cost = WL*math.Log(WL) - xlL
				if WR > 0 {
					cost += WR*math.Log(WR) - xlR
				}
			case Gini:
				cost = WL - sqL/WL + WR - sqR/WR
			default:
				cost = g.cost(left, WL) + g.cost(right, WR)
			}
		}
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: missLeft, cost: cost}
		}
	}
	return found
}

// sweepGini is bestNumeric's sweep for the Gini criterion without missing
// values, the common case, in one tight loop: the children's cost
// W_L − Σw_Lc²/W_L + W_R − Σw_Rc²/W_R from running sums of squares.
func (g *grower) sweepGini(w []float64, f int, o []int32, rk []int32, W, sqR float64, best *split) bool {
	y := g.d.y
	left, right := g.left, g.right
	minLeaf := g.cfg.minLeaf
	m := len(o)
	var WL, sqL float64
	WR := W
	found := false
	v := rk[0]
	for j := 0; j < m-1; j++ {
		r := o[j]
		c, wr := y[r], w[r]
		lc, rc := left[c], right[c]
		sqL += wr * (2*lc + wr)
		sqR += wr * (wr - 2*rc)
		left[c], right[c] = lc+wr, rc-wr
		WL += wr
		WR -= wr
		next := rk[j+1]
		if next == v {
			continue // equal values cannot be separated
		}
		v = next
		if j+1 < minLeaf || m-j-1 < minLeaf {
			continue
		}
		cost := WL - sqL/WL + WR - sqR/WR
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: WL > WR, cost: cost}
		}
	}
	return found
}

// threshold is the test value between sorted rows a and b of feature f
// (a's value below b's): their midpoint, or a's value when rounding puts
// the midpoint at b's.
func (g *grower) threshold(f int, a, b int32) float64 {
	lo, hi := g.d.at(a, f), g.d.at(b, f)
	if th := (lo + hi) / 2; th < hi && !math.IsInf(th, 0) {
		return th
	}
	return lo
}

// costWithMissing is the children's cost with the missing rows sent to the
// larger side, as they will be.
func (g *grower) costWithMissing(left, right, miss []float64, WL, WR, wMiss float64, missLeft bool, k int) float64 {
	side, other, Ws, Wo := left, right, WL, WR
	if !missLeft {
		side, other, Ws, Wo = right, left, WR, WL
	}
	for c := range k {
		side[c] += miss[c]
	}
	cost := g.cost(side, Ws+wMiss) + g.cost(other, Wo)
	for c := range k {
		side[c] -= miss[c]
	}
	return cost
}

// sweepRegression is bestNumeric for a regression tree: the children's
// summed squared deviations from running sums.
func (g *grower) sweepRegression(w []float64, f int, o []int32, rk []int32, m, nMiss int, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	var sum, sq, mSum, mSq, wMiss float64
	for _, r := range o[:m] {
		y := d.yr[r]
		sum += w[r] * y
		sq += w[r] * y * y
	}
	for _, r := range o[m:] {
		y := d.yr[r]
		mSum += w[r] * y
		mSq += w[r] * y * y
		wMiss += w[r]
	}
	// Centre on the mean: the squares then lose no precision to a large mean.
	c := (sum + mSum) / W
	Wn := W - wMiss
	sum, sq = sum-c*Wn, sq-2*c*sum+c*c*Wn
	mSum, mSq = mSum-c*wMiss, mSq-2*c*mSum+c*c*wMiss
	var lS, lQ, WL float64
	found := false
	for j := 0; j < m-1; j++ {
		r := o[j]
		y := d.yr[r] - c
		lS += w[r] * y
		lQ += w[r] * y * y
		WL += w[r]
		if rk[j+1] == rk[j] {
			continue
		}
		WR := W - wMiss - WL
		rS, rQ := sum-lS, sq-lQ
		nL, nR := j+1, m-j-1
		missLeft := WL > WR
		aS, aQ, aW, bS, bQ, bW := lS, lQ, WL, rS, rQ, WR
		if nMiss > 0 {
			if missLeft {
				nL += nMiss
				aS, aQ, aW = aS+mSum, aQ+mSq, aW+wMiss
			} else {
				nR += nMiss
				bS, bQ, bW = bS+mSum, bQ+mSq, bW+wMiss
			}
		}
		if nL < cfg.minLeaf || nR < cfg.minLeaf {
			continue
		}
		cost := max(aQ-aS*aS/aW, 0) + max(bQ-bS*bS/bW, 0)
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: missLeft, cost: cost}
		}
	}
	return found
}

// bestNominal tries the splits of nominal feature f: with two classes or a
// numeric target, every split of the levels ordered by their share of class
// 1 or their mean (the optimal binary partition, Breiman et al. 1984);
// with more classes, each level against the rest. Levels absent from the
// node go right (with any level unseen in training); missing values go to
// the larger side.
func (g *grower) bestNominal(w []float64, f int, sg segment, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	L := d.levels[f]
	k := max(d.k, 1)
	if cap(g.lv) < L*k {
		g.lv = make([]float64, L*k)
		g.lw, g.lsum, g.lsq = make([]float64, L), make([]float64, L), make([]float64, L)
		g.lcnt = make([]int, L)
	}
	lv, lw, lsum, lsq, lcnt := g.lv[:L*k], g.lw[:L], g.lsum[:L], g.lsq[:L], g.lcnt[:L]
	clear(lv)
	clear(lw)
	clear(lsum)
	clear(lsq)
	clear(lcnt)
	miss := g.miss
	clear(miss)
	var wMiss, mSum, mSq float64
	nMiss := 0
	for _, r := range g.rows[sg.s:sg.e] {
		v := d.at(r, f)
		if v != v {
			nMiss++
			wMiss += w[r]
			if d.k > 0 {
				miss[d.y[r]] += w[r]
			} else {
				mSum += w[r] * d.yr[r]
				mSq += w[r] * d.yr[r] * d.yr[r]
			}
			continue
		}
		l := int(v)
		lw[l] += w[r]
		lcnt[l]++
		if d.k > 0 {
			lv[l*k+d.y[r]] += w[r]
		} else {
			lsum[l] += w[r] * d.yr[r]
			lsq[l] += w[r] * d.yr[r] * d.yr[r]
		}
	}
	present := g.order[:0]
	for l := range L {
		if lw[l] > 0 {
			present = append(present, l)
		}
	}
	g.order = present
	if len(present) < 2 {
		return false
	}
	// Candidate left sets: prefixes of an ordering, or single levels.
	key := func(l int) float64 {
		if d.k == 0 {
			return lsum[l] / lw[l]
		}
		return lv[l*k+min(1, k-1)] / lw[l]
	}
	prefixes := d.k <= 2
	if prefixes {
		sortLevels(present, key)
	}
	// Each candidate moves some levels' statistics to the left and keeps
	// the rest (all present levels minus the left) on the right: O(k) a
	// candidate, so a column of many levels costs linear time.
	left, right := g.left, g.right
	var totW, totS, totQ float64
	totN := 0
	// The class weights of the present levels (the node's hold the
	// missing rows too).
	if len(g.ltot) != k {
		g.ltot = make([]float64, k)
	}
	tot := g.ltot
	clear(tot)
	for _, l := range present {
		totW, totS, totQ, totN = totW+lw[l], totS+lsum[l], totQ+lsq[l], totN+lcnt[l]
		for c := range k {
			tot[c] += lv[l*k+c]
		}
	}
	var WL, sL, qL float64
	nL := 0
	found := false
	bestCost, bestAt := math.Inf(1), -1
	bestMissLeft := false
	consider := func(at int) {
		WR, nR := totW-WL, totN-nL
		missLeft := WL > WR
		cL, cR := nL, nR
		if nMiss > 0 {
			if missLeft {
				cL += nMiss
			} else {
				cR += nMiss
			}
		}
		if cL < cfg.minLeaf || cR < cfg.minLeaf {
			return
		}
		var cost float64
		if d.k > 0 {
			for c := range k {
				right[c] = tot[c] - left[c]
				if right[c] < 1e-12*totW {
					right[c] = 0
				}
			}
			cost = g.costWithMissing(left, right, miss, WL, WR, wMiss, missLeft, k)
		} else {
			aS, aQ, aW, bS, bQ, bW := sL, qL, WL, totS-sL, totQ-qL, WR
			if missLeft {
				aS, aQ, aW = aS+mSum, aQ+mSq, aW+wMiss
			} else {
				bS, bQ, bW = bS+mSum, bQ+mSq, bW+wMiss
			}
			cost = max(aQ-aS*aS/aW, 0) + max(bQ-bS*bS/bW, 0)
		}
		found = true
		if cost < bestCost {
			bestCost, bestAt, bestMissLeft = cost, at, missLeft
		}
	}
	moveLeft := func(l int, sign float64) {
		WL, sL, qL = WL+sign*lw[l], sL+sign*lsum[l], qL+sign*lsq[l]
		nL += int(sign) * lcnt[l]
		for c := range k {
			left[c] += sign * lv[l*k+c]
		}
	}
	clear(left)
	if prefixes {
		// bestAt: the levels present[:bestAt] go left.
		for cut := 1; cut < len(present); cut++ {
			moveLeft(present[cut-1], 1)
			consider(cut)
		}
	} else {
		// bestAt: the level present[bestAt] alone goes left.
		for q, l := range present {
			moveLeft(l, 1)
			consider(q)
			moveLeft(l, -1)
			WL, sL, qL, nL = 0, 0, 0, 0
			clear(left)
		}
	}
	if bestAt >= 0 && bestCost < best.cost {
		goLeft := present[bestAt : bestAt+1]
		if prefixes {
			goLeft = present[:bestAt]
		}
		set := make([]uint64, (L+63)/64)
		for _, l := range goLeft {
			set[l>>6] |= 1 << (l & 63)
		}
		*best = split{feature: f, set: set, missLeft: bestMissLeft, cost: bestCost}
	}
	return found
}

// sortLevels orders levels by key, ties by level code.
func sortLevels(ls []int, key func(int) float64) {
	slices.SortFunc(ls, func(a, b int) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return a - b
	})
}
