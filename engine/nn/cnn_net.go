package nn

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
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
	src           []int    // im2col: the pixel under mask value t at output pixel q is src[q·k²+t] (−1: padding)
}

// denseLayer is a fully connected layer's place in the slab.
type denseLayer struct {
	in, out    int
	wOff, bOff int
}

func newConvNet(h, w, f, k, p int, hidden []int, classes int) *convNet {
	n := layoutConvNet(h, w, f, k, p, hidden, classes)
	n.src = n.im2colIndex()
	return n
}

// layoutConvNet is newConvNet without the pixel index (h·w·k² entries):
// the layers and the slab's layout only, so that a saved state's weights
// can be checked against the size its shape implies before anything is
// made at that shape.
func layoutConvNet(h, w, f, k, p int, hidden []int, classes int) *convNet {
	n := &convNet{h: h, w: w, f: f, k: k, p: p, ph: (h + p - 1) / p, pw: (w + p - 1) / p}
	off := f*k*k + f
	in := f * n.ph * n.pw
	for _, out := range append(append([]int(nil), hidden...), classes) {
		n.dense = append(n.dense, denseLayer{in: in, out: out, wOff: off, bOff: off + in*out})
		off += in*out + out
		in = out
	}
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

// buffers hold a batch of up to size images in im2col form and their
// convolutions, and one image's activations and deltas after them, reused
// from image to image: training allocates nothing per batch.
type buffers struct {
	size   int
	cols   *mat.Dense // size·h·w × k²: each output pixel's patch
	conv   *mat.Dense // size·h·w × f: after ReLU
	dconv  *mat.Dense // ∂loss/∂conv, as conv
	dconvT mat.Matrix // its transpose, made once (a Transpose in an interface allocates)
	gMask  *mat.Dense // f × k²: the masks' gradient of a batch
	// colChunks and convChunks are cols and conv in blocks of chunk rows,
	// small enough for gonum's serial product (its parallel one starts
	// goroutines, which allocate, on every call).
	colChunks, convChunks []*mat.Dense
	chunk                 int
	pool                  []float64   // f × ph × pw
	arg                   []int       // for each pooled value, the index in the image's conv block it came from
	acts                  [][]float64 // output of each dense layer (the last: probabilities)
	delta                 [][]float64 // ∂loss/∂(pre-activation) of each dense layer
	dpool                 []float64
}

// bufferImages is how many images buffers hold for batches of batch rows:
// all of them, unless their patches would pass 8 MB (a large batch of
// large images is then convolved a part at a time).
func (n *convNet) bufferImages(batch int) int {
	return max(1, min(batch, (1<<20)/(n.pixels()*max(n.k*n.k, n.f))))
}

func (n *convNet) newBuffers(size int) *buffers {
	hw, kk := n.pixels(), n.k*n.k
	b := &buffers{size: size, cols: mat.NewDense(size*hw, kk, nil), conv: mat.NewDense(size*hw, n.f, nil),
		dconv: mat.NewDense(size*hw, n.f, nil), gMask: mat.NewDense(n.f, kk, nil),
		pool: make([]float64, n.poolLen()), arg: make([]int, n.poolLen()), dpool: make([]float64, n.poolLen())}
	b.dconvT = b.dconv.T()
	rows := size * hw
	b.chunk = serialRows(n.f)
	for r := 0; r < rows; r += b.chunk {
		b.colChunks = append(b.colChunks, b.cols.Slice(r, min(r+b.chunk, rows), 0, kk).(*mat.Dense))
		b.convChunks = append(b.convChunks, b.conv.Slice(r, min(r+b.chunk, rows), 0, n.f).(*mat.Dense))
	}
	for _, l := range n.dense {
		b.acts = append(b.acts, make([]float64, l.out))
		b.delta = append(b.delta, make([]float64, l.out))
	}
	return b
}

// serialRows is how many rows of patches one product with f masks can
// take and stay below gonum's threshold for a parallel product: fewer than
// four blocks of 64 × 64 in the result. The parameters' ranges keep
// f ≤ 128, and k² ≤ 64 keeps the masks' gradient, f × k², serial too.
func serialRows(f int) int {
	return 64 * max(1, 3/((f+63)/64))
}

// masks is the slab's masks as an f × k² matrix (sharing its memory).
func (n *convNet) masks(wt []float64) *mat.Dense {
	return mat.NewDense(n.f, n.k*n.k, wt[:n.f*n.k*n.k])
}

// im2colIndex is, for every output pixel and mask value, the input pixel
// it reads, with zero padding ((k−1)/2 before, the rest after).
func (n *convNet) im2colIndex() []int {
	h, w, k, pad := n.h, n.w, n.k, (n.k-1)/2
	src := make([]int, h*w*k*k)
	for i := range h {
		for j := range w {
			for a := range k {
				for e := range k {
					ii, jj, at := i+a-pad, j+e-pad, -1
					if ii >= 0 && ii < h && jj >= 0 && jj < w {
						at = ii*w + jj
					}
					src[((i*w+j)*k+a)*k+e] = at
				}
			}
		}
	}
	return src
}

// convolve is the convolution of the images xs (at most b.size) followed
// by ReLU, out[q][c] = relu(b_c + Σ mask_c[a][e]·x[i+a−pad][j+e−pad]) for
// output pixel q = (i, j), as one product of their patches (im2col) with
// the masks' transpose maskT. Rows past the images keep stale values that
// nothing reads.
func (n *convNet) convolve(maskT mat.Matrix, wt []float64, xs [][]float64, b *buffers) {
	hw, kk := n.pixels(), n.k*n.k
	cols := b.cols.RawMatrix().Data
	for r, x := range xs {
		block := cols[r*hw*kk : (r+1)*hw*kk]
		for i, at := range n.src {
			if at >= 0 {
				block[i] = x[at]
			} else {
				block[i] = 0
			}
		}
	}
	used := (len(xs)*hw + b.chunk - 1) / b.chunk
	for i, c := range b.convChunks[:used] {
		c.Mul(b.colChunks[i], maskT)
	}
	bias := wt[n.f*kk : n.f*kk+n.f]
	conv := b.conv.RawMatrix().Data[:len(xs)*hw*n.f]
	for q := 0; q < len(conv); q += n.f {
		row := conv[q : q+n.f]
		for c, v := range row {
			row[c] = max(v+bias[c], 0)
		}
	}
}

// head pools image r of the batch and runs the dense layers to its class
// probabilities (b.acts' last).
func (n *convNet) head(wt []float64, r int, b *buffers) []float64 {
	hw := n.pixels()
	n.maxPool(b.conv.RawMatrix().Data[r*hw*n.f:(r+1)*hw*n.f], b.pool, b.arg)
	in := b.pool
	for i, l := range n.dense {
		out := b.acts[i]
		affine(wt, l, in, out)
		if i < len(n.dense)-1 {
			for j, v := range out {
				out[j] = max(v, 0)
			}
		} else {
			Softmax(out)
		}
		in = out
	}
	return in
}

// maxPool keeps each window's largest value and where it was; conv is one
// image's block, pixel by pixel, each pixel's f values together.
func (n *convNet) maxPool(conv, pool []float64, arg []int) {
	h, w, p, f := n.h, n.w, n.p, n.f
	for c := range f {
		for pi := range n.ph {
			for pj := range n.pw {
				best, at := math.Inf(-1), -1
				for i := pi * p; i < min(h, (pi+1)*p); i++ {
					for j := pj * p; j < min(w, (pj+1)*p); j++ {
						if v := conv[(i*w+j)*f+c]; v > best {
							best, at = v, (i*w+j)*f+c
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

// backward adds weight·∂(cross-entropy of class y)/∂wt for image r of the
// batch, whose head ran last, to grad: the dense layers' gradients at
// once, the convolution's delta into b.dconv for convBackward.
func (n *convNet) backward(wt []float64, r, y int, weight float64, b *buffers, grad []float64) {
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
	// To the values the windows kept, through the convolution's ReLU.
	hw := n.pixels()
	conv := b.conv.RawMatrix().Data[r*hw*n.f : (r+1)*hw*n.f]
	dconv := b.dconv.RawMatrix().Data[r*hw*n.f : (r+1)*hw*n.f]
	clear(dconv)
	for o, d := range b.dpool {
		if at := b.arg[o]; at >= 0 && conv[at] > 0 { // −1: a window of NaN
			dconv[at] += d
		}
	}
}

// convBackward adds the masks' and biases' gradients of the batch's
// first rows images to grad: the masks' is dconvᵀ·cols. (A view of the
// first rows would allocate; a short batch multiplies zeros instead.)
func (n *convNet) convBackward(rows int, b *buffers, grad []float64) {
	hw, kk := n.pixels(), n.k*n.k
	clear(b.dconv.RawMatrix().Data[rows*hw*n.f:]) // images past the batch's add nothing
	b.gMask.Mul(b.dconvT, b.cols)
	for i, v := range b.gMask.RawMatrix().Data {
		grad[i] += v
	}
	gBias := grad[n.f*kk : n.f*kk+n.f]
	for q, d := range b.dconv.RawMatrix().Data[:rows*hw*n.f] {
		gBias[q%n.f] += d
	}
}

// weightRanges are the slab's weight blocks (biases left out) by layer:
// the conv masks, then each dense layer's matrix.
func (n *convNet) weightRanges() [][2]int { return n.ranges }
