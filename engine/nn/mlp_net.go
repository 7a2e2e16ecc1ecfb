package nn

import (
	"math"
	"math/rand/v2"

	"github.com/tealab/tealab/engine/kernel"
)

// The output units and losses of a perceptron.
const (
	outSoftmax = iota // softmax + cross-entropy (classes)
	outLinear         // identity + squared error (regression)
	outSigmoid        // logistic units + squared error (either task)
)

// mlpNet is a dense network's weights, all in one slab so that one
// optimiser step moves them all. Layer l (1..L) maps sizes[l-1] inputs to
// sizes[l] units; its weights are stored in panels of eight units (in x 8,
// row-major), the shape engine/kernel's RowDots multiplies by, with the
// units past sizes[l] up to pads[l] held at zero; its biases follow them.
type mlpNet struct {
	sizes, pads []int
	act         Activation
	out         int
	w           []float64
	woff, boff  []int
}

func newMLPNet(sizes []int, act Activation, out int) *mlpNet {
	L := len(sizes) - 1
	n := &mlpNet{sizes: sizes, pads: make([]int, L+1), act: act, out: out,
		woff: make([]int, L+1), boff: make([]int, L+1)}
	total := 0
	for l, s := range sizes {
		n.pads[l] = kernel.Pad(s)
		if l == 0 {
			continue
		}
		n.woff[l] = total
		total += sizes[l-1] * n.pads[l]
		n.boff[l] = total
		total += n.pads[l]
	}
	n.w = make([]float64, total)
	return n
}

func (n *mlpNet) layers() int { return len(n.sizes) - 1 }

// weight is the index of W_l[j][u] (input j, unit u) in a slab laid out
// as n.w.
func (n *mlpNet) weight(l, j, u int) int {
	return n.woff[l] + (u/8)*n.sizes[l-1]*8 + j*8 + u%8
}

// initialise draws the weights uniformly in ±sqrt(6/fan), fan the inputs
// (He) or the inputs and outputs (Xavier/Glorot); biases start at zero.
func (n *mlpNet) initialise(rng *rand.Rand, he bool) {
	clear(n.w)
	for l := 1; l <= n.layers(); l++ {
		fan := float64(n.sizes[l-1])
		if !he || l == n.layers() && n.out != outLinear {
			fan += float64(n.sizes[l])
		}
		bound := math.Sqrt(6 / fan)
		for j := range n.sizes[l-1] {
			for u := range n.sizes[l] {
				n.w[n.weight(l, j, u)] = bound * (2*rng.Float64() - 1)
			}
		}
	}
}

// mlpBatch holds the buffers of a pass over at most cap rows: the
// activations of every layer (acts[0] the inputs), the dropped-out
// activations the next layer reads when dropout is on, the masks, the
// backpropagated errors, and the transposes the weight gradients need.
type mlpBatch struct {
	cap    int
	acts   [][]float64
	drop   [][]float64
	masks  [][]float64
	deltas [][]float64
	at     []float64 // a layer's inputs transposed: in x rows
	dpanel []float64 // eight columns of a layer's errors: rows x 8
	wt     []float64 // a layer's weights transposed, in panels: units x 8 per panel
}

func newMLPBatch(n *mlpNet, rows int, dropout bool) *mlpBatch {
	b := &mlpBatch{cap: rows}
	maxIn, maxWT := 0, 0
	for l, p := range n.pads {
		b.acts = append(b.acts, make([]float64, rows*p))
		b.deltas = append(b.deltas, make([]float64, rows*p))
		if dropout && l > 0 && l < n.layers() {
			b.drop = append(b.drop, make([]float64, rows*p))
			b.masks = append(b.masks, make([]float64, rows*p))
		} else {
			b.drop, b.masks = append(b.drop, nil), append(b.masks, nil)
		}
		if l < n.layers() {
			maxIn = max(maxIn, n.sizes[l])
		}
		if l > 0 {
			maxWT = max(maxWT, n.pads[l-1]*n.sizes[l])
		}
	}
	b.at = make([]float64, maxIn*rows)
	b.dpanel = make([]float64, rows*8)
	b.wt = make([]float64, maxWT)
	return b
}

// input is what layer l+1 reads: layer l's activations, dropped out.
func (b *mlpBatch) input(l int) []float64 {
	if b.drop[l] != nil {
		return b.drop[l]
	}
	return b.acts[l]
}

// forward computes the outputs of the rows in b.acts[0]; with rng, the
// hidden units drop out with probability p (inverted dropout: the kept
// ones are scaled by 1/(1-p), so that prediction needs no rescaling).
func (n *mlpNet) forward(b *mlpBatch, rows int, rng *rand.Rand, p float64) {
	L := n.layers()
	for l := 1; l <= L; l++ {
		in, pad := n.sizes[l-1], n.pads[l]
		A, Z := b.input(l-1), b.acts[l]
		if b.drop[l-1] != nil && rng == nil {
			A = b.acts[l-1]
		}
		for q := 0; q < pad; q += 8 {
			kernel.RowDots(Z[q:], pad, A, n.pads[l-1], rows, in, n.w[n.woff[l]+q*in:n.woff[l]+(q+8)*in])
		}
		bias := n.w[n.boff[l] : n.boff[l]+n.sizes[l]]
		for i := range rows {
			z := Z[i*pad : i*pad+len(bias)]
			for u, c := range bias {
				z[u] += c
			}
			switch {
			case l < L:
				n.act.Apply(z)
			case n.out == outSoftmax:
				Softmax(z)
			case n.out == outSigmoid:
				for u, v := range z {
					z[u] = Logistic(v)
				}
			}
		}
		if l < L && rng != nil && b.drop[l] != nil {
			keep := 1 / (1 - p)
			m, d := b.masks[l][:rows*pad], b.drop[l][:rows*pad]
			for i := range m {
				m[i] = keep
				if rng.Float64() < p {
					m[i] = 0
				}
				d[i] = Z[i] * m[i]
			}
		}
	}
}

// loss is the mean loss of the rows whose targets are y (class codes for
// softmax, values otherwise), each row's loss weighted by w (nil: all 1),
// and sets the output layer's errors to the gradient of that mean with
// respect to its pre-activations.
func (n *mlpNet) loss(b *mlpBatch, rows int, y, w []float64) float64 {
	L := n.layers()
	k, pad := n.sizes[L], n.pads[L]
	O, D := b.acts[L], b.deltas[L]
	sum := 0.0
	for i := range rows {
		o, d := O[i*pad:i*pad+k], D[i*pad:i*pad+k]
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		inv := wi / float64(rows)
		li := 0.0
		switch n.out {
		case outSoftmax:
			c := int(y[i])
			li = -math.Log(max(o[c], 1e-300))
			for u, v := range o {
				d[u] = v * inv
			}
			d[c] -= inv
		case outLinear:
			r := o[0] - y[i]
			li = r * r / 2
			d[0] = r * inv
		case outSigmoid:
			for u, v := range o {
				t := y[i]
				if k > 1 { // one unit a class
					t = 0
					if int(y[i]) == u {
						t = 1
					}
				}
				r := v - t
				li += r * r / 2
				d[u] = r * v * (1 - v) * inv
			}
		}
		sum += wi * li
	}
	return sum / float64(rows)
}

// penalty is the L2 term l2/(2 rows)·‖W‖² (biases left out), as
// scikit-learn's MLP adds it to each mini-batch's loss.
func (n *mlpNet) penalty(l2 float64, rows int) float64 {
	if l2 == 0 {
		return 0
	}
	s := 0.0
	for l := 1; l <= n.layers(); l++ {
		for _, v := range n.w[n.woff[l]:n.boff[l]] {
			s += v * v
		}
	}
	return l2 / (2 * float64(rows)) * s
}

// backward sets g (laid out as n.w) to the gradient of the loss whose
// output errors loss set, plus the L2 term's.
func (n *mlpNet) backward(b *mlpBatch, rows int, g []float64, l2 float64) {
	for l := n.layers(); l >= 1; l-- {
		pad := n.pads[l]
		D := b.deltas[l]
		n.weightGrad(b, l, rows, g)
		db := g[n.boff[l] : n.boff[l]+pad]
		clear(db)
		for i := range rows {
			for u, v := range D[i*pad : (i+1)*pad] {
				db[u] += v
			}
		}
		if l2 != 0 {
			c := l2 / float64(rows)
			for i, v := range n.w[n.woff[l]:n.boff[l]] {
				g[n.woff[l]+i] += c * v
			}
		}
		if l == 1 {
			break
		}
		// The errors of the layer below: D·Wᵀ, through the mask and f'.
		n.transposeWeights(b, l)
		below, units := b.deltas[l-1], n.sizes[l]
		for q := 0; q < n.pads[l-1]; q += 8 {
			kernel.RowDots(below[q:], n.pads[l-1], D, pad, rows, units, b.wt[q*units:(q+8)*units])
		}
		m := rows * n.pads[l-1]
		if b.masks[l-1] != nil {
			for i, v := range b.masks[l-1][:m] {
				below[i] *= v
			}
		}
		n.act.Backward(below[:m], b.acts[l-1][:m])
	}
}

// weightGrad sets layer l's weight gradient, panel by panel: each panel
// is (inputs)ᵀ times eight columns of the errors.
func (n *mlpNet) weightGrad(b *mlpBatch, l, rows int, g []float64) {
	in, pad := n.sizes[l-1], n.pads[l]
	A, lda := b.input(l-1), n.pads[l-1]
	at := b.at[:in*rows]
	for i := range rows {
		for j, v := range A[i*lda : i*lda+in] {
			at[j*rows+i] = v
		}
	}
	D := b.deltas[l]
	for q := 0; q < pad; q += 8 {
		for i := range rows {
			copy(b.dpanel[i*8:i*8+8], D[i*pad+q:i*pad+q+8])
		}
		kernel.RowDots(g[n.woff[l]+q*in:], 8, at, rows, in, rows, b.dpanel[:rows*8])
	}
}

// transposeWeights packs W_lᵀ (units x inputs) into b.wt in panels of
// eight inputs, the inputs past sizes[l-1] zero.
func (n *mlpNet) transposeWeights(b *mlpBatch, l int) {
	in, units := n.sizes[l-1], n.sizes[l]
	wt := b.wt[:n.pads[l-1]*units]
	clear(wt)
	for j := range in {
		panel := wt[(j/8)*units*8:]
		for u := range units {
			panel[u*8+j%8] = n.w[n.weight(l, j, u)]
		}
	}
}
