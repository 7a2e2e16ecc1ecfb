package cluster

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// Linkages.
const (
	Single   = "single"
	Complete = "complete"
	Average  = "average"
	Centroid = "centroid"
	Divisive = "divisive" // top down: recursive 2-means
)

// hclustMemory: agglomerative clustering keeps every pairwise distance
// in an n x n matrix; divisive clustering keeps none.
func hclustMemory(n int, method string) engine.Need {
	if method == Divisive {
		return engine.Need{}
	}
	need := engine.Matrix(n, n, "matrix of pairwise distances")
	need.Advice = "sample the rows, or use linkage=divisive or k-means"
	return need
}

func init() {
	engine.Register(engine.Spec{
		Name:    "hclust",
		Title:   "hierarchical clustering",
		Family:  family,
		Summary: "agglomerative: merge the two nearest clusters until one is left; the dendrogram, cut at k clusters or a height",
		Notes:   "Shewchuk, Concise Machine Learning, bonus lecture (hierarchical clustering, linkages, dendrograms); Recht, Malik & Tu, CS 189 notes, section 15.2",
		Tasks:   []engine.Task{datasets.Clustering},
		Unit:    "merge",
		Loss:    "merge height",
		Params: []engine.Param{
			kParam(),
			{Name: "linkage", Kind: engine.Choice, Default: Average, Choices: []string{Single, Complete, Average, Centroid, Divisive},
				Help:   "distance between clusters: single, complete, average or centroid; or divisive (top down)",
				Detail: "single is the distance of the nearest members, complete of the farthest, average the mean over all pairs, centroid the distance between centroids (merge heights can fall: inversions, which the dendrogram draws). divisive splits top down by 2-means instead, a node's height its sum of squares."},
			{Name: "height", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1e300,
				Help: "cut the tree at this height instead of at k clusters (0: cut at k)"},
		},
		Bench: []engine.BenchCase{{Name: "hclust", Data: "blobs_3k_10", Task: datasets.Clustering,
			Params: map[string]string{"k": "5", "linkage": Average}}},
		Memory: func(s engine.Shape, v engine.Values) engine.Need { return hclustMemory(s.Rows, v.String("linkage")) },
		New: func(v engine.Values) (engine.Model, error) {
			return &Hclust{K: v.Int("k"), Method: v.String("linkage"), Height: v.Float("height")}, nil
		},
	})
}

// Hclust is agglomerative hierarchical clustering with Euclidean distances:
// it keeps the full merge tree (scipy's linkage matrix) and labels the rows
// by cutting it at K clusters or at a height. Merges are found by Müllner's
// generic algorithm (a priority queue of each cluster's nearest neighbour
// among the later ones, refreshed lazily), O(n²) time in practice and
// O(n²) memory, with Lance–Williams updates; centroid linkage works on
// squared distances and reports their roots.
type Hclust struct {
	K      int
	Method string // single, complete, average, centroid or divisive
	Height float64

	link   *engine.Linkage
	labels []int
	rows   *mat.Dense // the training rows, which Assign measures new rows against
	engine.FitState
}

// Fit implements engine.Model: one Step per merge, its height as the loss.
func (h *Hclust) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	n, _ := t.X.Dims()
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return fmt.Errorf("hierarchical clustering: %w", err)
	}
	if err := engine.CheckNeed(fmt.Sprintf("hierarchical clustering with %s linkage", h.Method), hclustMemory(n, h.Method)); err != nil {
		return err
	}
	k, err := clusters(h.K, t, n)
	if err != nil {
		return fmt.Errorf("hierarchical clustering: %w", err)
	}
	method := h.Method
	var merges []engine.Merge
	if method == Divisive {
		merges, err = divisive(ctx, t.X, t.Seed)
	} else {
		merges, err = linkage(ctx, t.X, method)
	}
	if err != nil {
		return err
	}
	h.link, h.rows = &engine.Linkage{Merges: merges, Leaves: n, Method: method}, t.X
	if h.Height > 0 {
		h.labels = CutHeight(h.link, h.Height)
	} else {
		h.labels = CutK(h.link, k)
	}
	h.Fitted = true
	// The merges as progress: the tree is built when the steps are
	// reported (Shewchuk's agglomeration, one merge at a time).
	for i, m := range merges {
		if err := rec.Step(engine.Step{Step: i + 1, Total: len(merges), TrainLoss: m.Height,
			Detail: Merge{Size: m.Size}}); err != nil {
			return err
		}
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// Linkage implements engine.Linkager.
func (h *Hclust) Linkage() *engine.Linkage {
	if !h.Fitted {
		return nil
	}
	return h.link
}

// TrainingLabels implements engine.Labeler.
func (h *Hclust) TrainingLabels() []int { return h.labels }

// linkage merges the rows of X until one cluster is left.
func linkage(ctx context.Context, X *mat.Dense, method string) ([]engine.Merge, error) {
	n, _ := X.Dims()
	if n < 2 {
		return nil, nil
	}
	squared := method == Centroid
	// Every pair both ways, so that a cluster's distances are one row read
	// in sequence (the Lance–Williams update reads two rows a merge).
	D := make([]float64, n*n)
	if err := pairDistances(ctx, X, D, squared); err != nil {
		return nil, err
	}
	idx := func(i, j int) int { return i*n + j }
	size := make([]int, n)
	id := make([]int, n) // the cluster id of each slot (rows, then n+merge)
	alive := make([]bool, n)
	for i := range n {
		size[i], id[i], alive[i] = 1, i, true
	}
	// Each slot's nearest neighbour among the later live slots.
	nn := make([]int, n)
	mind := make([]float64, n)
	scan := func(a int) {
		nn[a], mind[a] = -1, math.Inf(1)
		for x := a + 1; x < n; x++ {
			if alive[x] {
				if v := D[idx(a, x)]; v < mind[a] {
					nn[a], mind[a] = x, v
				}
			}
		}
	}
	live := make([]int, n) // the live slots, in order
	for i := range live {
		live[i] = i
	}
	q := newIndexedHeap(n)
	for a := 0; a < n-1; a++ {
		scan(a)
		q.push(a, mind[a])
	}
	merges := make([]engine.Merge, 0, n-1)
	for step := 0; step < n-1; step++ {
		if step%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		a := q.top()
		// A stale candidate (its neighbour merged away, or the distance
		// changed): refresh and look again.
		for nn[a] < 0 || !alive[nn[a]] || mind[a] != D[idx(a, nn[a])] {
			scan(a)
			if nn[a] < 0 { // no live slot after it: it is some other's neighbour only
				q.remove(a)
			} else {
				q.update(a, mind[a])
			}
			a = q.top()
		}
		b := nn[a]
		delta := mind[a]
		q.remove(a)
		alive[a] = false
		height := delta
		if squared {
			height = math.Sqrt(max(delta, 0))
		}
		lo, hi := min(id[a], id[b]), max(id[a], id[b])
		merges = append(merges, engine.Merge{A: lo, B: hi, Height: height, Size: size[a] + size[b]})
		// Lance–Williams: the merged cluster takes slot b.
		na, nb := float64(size[a]), float64(size[b])
		live = slices.DeleteFunc(live, func(x int) bool { return x == a })
		rowA, rowB := D[a*n:(a+1)*n], D[b*n:(b+1)*n]
		for _, x := range live {
			if x == b {
				continue
			}
			dax, dbx := rowA[x], rowB[x]
			var v float64
			switch method {
			case Single:
				v = min(dax, dbx)
			case Complete:
				v = max(dax, dbx)
			case Average:
				v = (na*dax + nb*dbx) / (na + nb)
			case Centroid:
				v = (na*dax+nb*dbx)/(na+nb) - na*nb*delta/((na+nb)*(na+nb))
			}
			rowB[x] = v
			D[x*n+b] = v
		}
		size[b] += size[a]
		id[b] = n + step
		// Neighbours: a slot that pointed at a now points at b (the check
		// above refreshes it if that is stale); a slot before b may now be
		// nearest to b; b itself rescans.
		for x := range b {
			if !alive[x] {
				continue
			}
			if nn[x] == a {
				nn[x] = b
			}
			if v := D[idx(x, b)]; v < mind[x] {
				nn[x], mind[x] = b, v
				q.update(x, v)
			}
		}
		if q.has(b) {
			scan(b)
			if nn[b] < 0 {
				q.remove(b)
			} else {
				q.update(b, mind[b])
			}
		}
	}
	return merges, nil
}

// pairDistances fills D (n × n) with Euclidean distances, or their
// squares.
func pairDistances(ctx context.Context, X *mat.Dense, D []float64, squared bool) error {
	n, d := X.Dims()
	put := func(i, j int, s float64) {
		if !squared {
			s = math.Sqrt(s)
		}
		D[i*n+j], D[j*n+i] = s, s
	}
	for i := range n {
		xi := X.RawRowView(i)[:d]
		for j := i + 1; j < n; j++ {
			put(i, j, kernel.SqDist(xi, X.RawRowView(j)[:d]))
		}
		if i%512 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexedHeap is a min-heap of slots keyed by distance, with updates.
type indexedHeap struct {
	heap []int     // slots
	pos  []int     // slot -> index in heap, -1 if absent
	key  []float64 // slot -> key
}

func newIndexedHeap(n int) *indexedHeap {
	h := &indexedHeap{pos: make([]int, n), key: make([]float64, n)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *indexedHeap) has(s int) bool { return h.pos[s] >= 0 }

func (h *indexedHeap) less(i, j int) bool {
	a, b := h.heap[i], h.heap[j]
	return h.key[a] < h.key[b] || (h.key[a] == h.key[b] && a < b)
}

func (h *indexedHeap) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.pos[h.heap[i]], h.pos[h.heap[j]] = i, j
}

func (h *indexedHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *indexedHeap) down(i int) {
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h.heap) && h.less(l, m) {
			m = l
		}
		if r < len(h.heap) && h.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		h.swap(i, m)
		i = m
	}
}

func (h *indexedHeap) push(s int, k float64) {
	h.key[s] = k
	h.pos[s] = len(h.heap)
	h.heap = append(h.heap, s)
	h.up(len(h.heap) - 1)
}

func (h *indexedHeap) top() int { return h.heap[0] }

func (h *indexedHeap) update(s int, k float64) {
	if h.pos[s] < 0 {
		return
	}
	h.key[s] = k
	i := h.pos[s]
	h.up(i)
	h.down(h.pos[s])
}

func (h *indexedHeap) remove(s int) {
	i := h.pos[s]
	if i < 0 {
		return
	}
	last := len(h.heap) - 1
	h.swap(i, last)
	h.heap = h.heap[:last]
	h.pos[s] = -1
	if i < last {
		h.up(i)
		h.down(h.pos[h.heap[i]])
	}
}

// CutK labels the rows by the first n−k merges: k clusters, numbered by
// the order of their first row.
func CutK(l *engine.Linkage, k int) []int {
	return cut(l, max(l.Leaves-k, 0), math.Inf(1))
}

// CutHeight labels the rows by the merges at most h high (a merge above h
// stops the cut, so an inversion under a higher merge stays joined only
// through it).
func CutHeight(l *engine.Linkage, h float64) []int {
	return cut(l, len(l.Merges), h)
}

func cut(l *engine.Linkage, merges int, h float64) []int {
	n := l.Leaves
	parent := make([]int, n+len(l.Merges))
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for i, m := range l.Merges[:merges] {
		if m.Height > h {
			break
		}
		parent[find(m.A)] = n + i
		parent[find(m.B)] = n + i
	}
	labels := make([]int, n)
	names := map[int]int{}
	for i := range n {
		r := find(i)
		c, ok := names[r]
		if !ok {
			c = len(names)
			names[r] = c
		}
		labels[i] = c
	}
	return labels
}

// divisive builds the tree top down (the alternative Shewchuk's
// bonus lecture on hierarchical clustering names): split every
// cluster of two or more rows in two by 2-means (k-means++ start, three
// restarts), down to single rows. A node's height is its within-cluster sum
// of squares, which a part never exceeds, so the tree reads as a
// dendrogram; the merges are listed lowest first.
func divisive(ctx context.Context, X *mat.Dense, seed uint64) ([]engine.Merge, error) {
	n, d := X.Dims()
	type node struct {
		rows        []int
		left, right int // node indices; -1 for a leaf
		height      float64
	}
	var nodes []node
	var split func(rows []int) (int, error)
	split = func(rows []int) (int, error) {
		id := len(nodes)
		nodes = append(nodes, node{rows: rows, left: -1, right: -1})
		if len(rows) < 2 {
			return id, nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		sub := mat.NewDense(len(rows), d, nil)
		for r, i := range rows {
			sub.SetRow(r, X.RawRowView(i)[:d])
		}
		var a, b []int
		if len(rows) == 2 {
			a, b = rows[:1], rows[1:]
		} else {
			km := innerKMeans(2, 3)
			if err := engine.Fit(ctx, km, engine.Train{X: sub, Seed: seed + uint64(id)}, nil); err != nil {
				return 0, err
			}
			for r, c := range km.TrainingLabels() {
				if c == 0 {
					a = append(a, rows[r])
				} else {
					b = append(b, rows[r])
				}
			}
			if len(a) == 0 || len(b) == 0 { // identical rows: peel one off
				a, b = rows[:1], rows[1:]
			}
		}
		nodes[id].height = sumOfSquares(sub)
		l, err := split(a)
		if err != nil {
			return 0, err
		}
		r, err := split(b)
		if err != nil {
			return 0, err
		}
		nodes[id].left, nodes[id].right = l, r
		return id, nil
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if _, err := split(all); err != nil {
		return nil, err
	}
	// Internal nodes lowest first (ties: smaller first, so children come
	// before parents); leaves are rows.
	var internal []int
	for i, nd := range nodes {
		if nd.left >= 0 {
			internal = append(internal, i)
		}
	}
	slices.SortStableFunc(internal, func(a, b int) int {
		if nodes[a].height != nodes[b].height {
			return cmpFloat(nodes[a].height, nodes[b].height)
		}
		return len(nodes[a].rows) - len(nodes[b].rows)
	})
	id := make([]int, len(nodes))
	for i, nd := range nodes {
		if nd.left < 0 {
			id[i] = nd.rows[0]
		}
	}
	merges := make([]engine.Merge, 0, n-1)
	for k, i := range internal {
		id[i] = n + k
		a, b := id[nodes[i].left], id[nodes[i].right]
		merges = append(merges, engine.Merge{A: min(a, b), B: max(a, b), Height: nodes[i].height, Size: len(nodes[i].rows)})
	}
	return merges, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sumOfSquares is Σ‖x − mean‖² over the rows of X.
func sumOfSquares(X *mat.Dense) float64 {
	n, d := X.Dims()
	mean := make([]float64, d)
	for i := range n {
		for j, v := range X.RawRowView(i) {
			mean[j] += v / float64(n)
		}
	}
	s := 0.0
	for i := range n {
		s += kernel.SqDist(X.RawRowView(i), mean)
	}
	return s
}
