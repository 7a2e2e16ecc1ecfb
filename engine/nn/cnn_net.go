package nn

import (
	"math"
	"math/rand/v2"
)

// convNet is the arithmetic of the convolutional network: one image of
// h × w pixels, a convolution of f masks k × k (zero padding keeps the
// image's size, so a 2 × 2 image takes a 3 × 3 mask), ReLU, max pooling
// in p × p windows (a partial window at the edge pools what it holds), then
// dense ReLU layers and a softmax output. All weights live in one slab,
// laid out as the layers come: conv masks, conv biases, then each dense
// layer's weights (out × in, row by row) and biases.
type convNet struct {
	h, w, f, k, p int
	ph, pw        int // pooled height and width
	dense         []denseLayer
	ranges        [][2]int // weightRanges, made once
	taps          []tap
}

// denseLayer is a fully connected layer's place in the slab.
type denseLayer struct {
	in, out    int
	wOff, bOff int
}

func newConvNet(h, w, f, k, p int, hidden []int, classes int) *convNet {
	n := &convNet{h: h, w: w, f: f, k: k, p: p, ph: (h + p - 1) / p, pw: (w + p - 1) / p}
	off := f*k*k + f
	in := f * n.ph * n.pw
	for _, out := range append(append([]int(nil), hidden...), classes) {
		n.dense = append(n.dense, denseLayer{in: in, out: out, wOff: off, bOff: off + in*out})
		off += in*out + out
		in = out
	}
	n.taps = n.makeTaps()
	n.ranges = [][2]int{{0, f * k * k}}
	for _, l := range n.dense {
		n.ranges = append(n.ranges, [2]int{l.wOff, l.wOff + l.in*l.out})
	}
	return n
}

// size is the number of weights in the slab.
func (n *convNet) size() int {
	last := n.dense[len(n.dense)-1]
	return last.bOff + last.out
}

func (n *convNet) pixels() int  { return n.h * n.w }
func (n *convNet) convLen() int { return n.f * n.h * n.w }
func (n *convNet) poolLen() int { return n.f * n.ph * n.pw }
func (n *convNet) classes() int { return n.dense[len(n.dense)-1].out }

// initWeights draws every weight uniformly in ±√(6/fan) (biases stay 0):
// He's fan is the inputs, Xavier's (Glorot's) the inputs and outputs.
func (n *convNet) initWeights(wt []float64, kind string, rng *rand.Rand) {
	clear(wt)
	draw := func(ws []float64, fanIn, fanOut int) {
		fan := fanIn
		if kind == "xavier" {
			fan += fanOut
		}
		a := math.Sqrt(6 / float64(fan))
		for i := range ws {
			ws[i] = (2*rng.Float64() - 1) * a
		}
	}
	kk := n.k * n.k
	draw(wt[:n.f*kk], kk, n.f*kk)
	for _, l := range n.dense {
		draw(wt[l.wOff:l.wOff+l.in*l.out], l.in, l.out)
	}
}

// buffers are one image's activations and deltas, reused from image to
// image so that training allocates nothing per batch.
type buffers struct {
	conv  []float64   // after ReLU, f × h × w
	pool  []float64   // f × ph × pw
	arg   []int       // for each pooled value, the index in conv it came from (-1: none)
	acts  [][]float64 // output of each dense layer (the last: probabilities)
	delta [][]float64 // ∂loss/∂(pre-activation) of each dense layer
	dpool []float64
	dconv []float64
}

func (n *convNet) newBuffers() *buffers {
	b := &buffers{conv: make([]float64, n.convLen()), pool: make([]float64, n.poolLen()),
		arg: make([]int, n.poolLen()), dpool: make([]float64, n.poolLen()), dconv: make([]float64, n.convLen())}
	for _, l := range n.dense {
		b.acts = append(b.acts, make([]float64, l.out))
		b.delta = append(b.delta, make([]float64, l.out))
	}
	return b
}

// forward computes the class probabilities of image x into b.acts' last.
func (n *convNet) forward(wt, x []float64, b *buffers) []float64 {
	n.convolve(wt, x, b.conv)
	n.maxPool(b.conv, b.pool, b.arg)
	in := b.pool
	for i, l := range n.dense {
		out := b.acts[i]
		affine(wt, l, in, out)
		if i < len(n.dense)-1 {
			for j, v := range out {
				out[j] = max(v, 0)
			}
		} else {
			softmax(out)
		}
		in = out
	}
	return in
}

// convolve is the convolution with zero padding ((k−1)/2 before, the rest
// after) followed by ReLU: out[c][i][j] = relu(b_c + Σ mask_c[a][e]·x[i+a−pad][j+e−pad]).
// It goes mask value by mask value (a tap), adding a shifted copy of the
// image to each plane, so that the inner loop runs along contiguous rows.
func (n *convNet) convolve(wt, x, out []float64) {
	h, w, k := n.h, n.w, n.k
	masks, bias := wt[:n.f*k*k], wt[n.f*k*k:n.f*k*k+n.f]
	for c := range n.f {
		plane := out[c*h*w : (c+1)*h*w]
		for i := range plane {
			plane[i] = bias[c]
		}
		for _, t := range n.taps {
			m := masks[c*k*k+t.tap]
			for i := t.i0; i < t.i1; i++ {
				dst := plane[i*w+t.j0 : i*w+t.j1]
				src := x[i*w+t.shift+t.j0:]
				for j := range dst {
					dst[j] += m * src[j]
				}
			}
		}
		for i, v := range plane {
			plane[i] = max(v, 0)
		}
	}
}

// tap is one value of a mask and the outputs it reaches inside the image:
// rows i0..i1, columns j0..j1, each taking the pixel shift places on.
type tap struct {
	tap, i0, i1, j0, j1, shift int
}

// makeTaps lists the taps of a k × k mask that reach some output.
func (n *convNet) makeTaps() []tap {
	var out []tap
	h, w, k, pad := n.h, n.w, n.k, (n.k-1)/2
	for a := range k {
		for e := range k {
			t := tap{tap: a*k + e, i0: max(0, pad-a), i1: min(h, h+pad-a), j0: max(0, pad-e), j1: min(w, w+pad-e),
				shift: (a-pad)*w + e - pad}
			if t.i0 < t.i1 && t.j0 < t.j1 {
				out = append(out, t)
			}
		}
	}
	return out
}

// maxPool keeps each window's largest value and where it was.
func (n *convNet) maxPool(conv, pool []float64, arg []int) {
	h, w, p := n.h, n.w, n.p
	for c := range n.f {
		for pi := range n.ph {
			for pj := range n.pw {
				best, at := math.Inf(-1), -1
				for i := pi * p; i < min(h, (pi+1)*p); i++ {
					for j := pj * p; j < min(w, (pj+1)*p); j++ {
						if v := conv[c*h*w+i*w+j]; v > best {
							best, at = v, c*h*w+i*w+j
						}
					}
				}
				o := (c*n.ph+pi)*n.pw + pj
				pool[o], arg[o] = best, at
			}
		}
	}
}

// affine is out = W·in + b for layer l.
func affine(wt []float64, l denseLayer, in, out []float64) {
	W, bias := wt[l.wOff:l.wOff+l.in*l.out], wt[l.bOff:l.bOff+l.out]
	for o := range out {
		s := bias[o]
		for i, v := range W[o*l.in : (o+1)*l.in] {
			s += v * in[i]
		}
		out[o] = s
	}
}

// softmax turns scores into probabilities in place, stably.
func softmax(z []float64) {
	top := math.Inf(-1)
	for _, v := range z {
		top = max(top, v)
	}
	sum := 0.0
	for i, v := range z {
		z[i] = math.Exp(v - top)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
}

// backward adds weight·∂(cross-entropy of class y)/∂wt for image x, whose
// forward pass is in b, to grad.
func (n *convNet) backward(wt, x []float64, y int, weight float64, b *buffers, grad []float64) {
	last := len(n.dense) - 1
	copy(b.delta[last], b.acts[last])
	b.delta[last][y]--
	for j := range b.delta[last] {
		b.delta[last][j] *= weight
	}
	for i := last; i >= 0; i-- {
		l := n.dense[i]
		in, dIn := b.pool, b.dpool
		if i > 0 {
			in, dIn = b.acts[i-1], b.delta[i-1]
		}
		W := wt[l.wOff : l.wOff+l.in*l.out]
		gW, gb := grad[l.wOff:l.wOff+l.in*l.out], grad[l.bOff:l.bOff+l.out]
		clear(dIn)
		for o, d := range b.delta[i] {
			if d == 0 {
				continue
			}
			gb[o] += d
			row, grow := W[o*l.in:(o+1)*l.in], gW[o*l.in:(o+1)*l.in]
			for j, v := range in {
				grow[j] += d * v
				dIn[j] += d * row[j]
			}
		}
		if i > 0 { // through the ReLU of the layer below
			for j, v := range in {
				if v <= 0 {
					dIn[j] = 0
				}
			}
		}
	}
	n.backConv(x, b, grad)
}

// backConv routes the pooled deltas to the values the windows kept, through
// the ReLU, and adds the masks' and biases' gradients.
func (n *convNet) backConv(x []float64, b *buffers, grad []float64) {
	clear(b.dconv)
	for o, d := range b.dpool {
		if at := b.arg[o]; at >= 0 && b.conv[at] > 0 {
			b.dconv[at] += d
		}
	}
	h, w, k := n.h, n.w, n.k
	gMasks, gBias := grad[:n.f*k*k], grad[n.f*k*k:n.f*k*k+n.f]
	for c := range n.f {
		plane := b.dconv[c*h*w : (c+1)*h*w]
		for _, d := range plane {
			gBias[c] += d
		}
		for _, t := range n.taps {
			s := 0.0
			for i := t.i0; i < t.i1; i++ {
				d := plane[i*w+t.j0 : i*w+t.j1]
				src := x[i*w+t.shift+t.j0:]
				for j, v := range d {
					s += v * src[j]
				}
			}
			gMasks[c*k*k+t.tap] += s
		}
	}
}

// weightRanges are the slab's weight blocks (biases left out) by layer:
// the conv masks, then each dense layer's matrix.
func (n *convNet) weightRanges() [][2]int { return n.ranges }
