package svm

// smoCache keeps the kernel rows the SMO solver asked for lately, least
// recently used first out (LIBSVM's Cache). Its memory is slots as long
// as a whole row, allocated as rows first need them and reused after
// eviction, so that a fit touches only the memory its rows fill. A row
// may be cached only in part, its first lens[i] entries: those of the
// variables that were active when it was computed.
type smoCache struct {
	rows    [][]float64 // the slot holding each row; nil when not cached
	lens    []int
	free    [][]float64 // slots no row holds
	slots   int         // slots that may still be allocated
	pending [][2]int    // swaps of places not yet applied to the rows' entries
	prev    []int       // LRU list over row indices; index len(rows) is its head
	next    []int
}

// newSMOCache is a cache for n rows of n values within budget values; it
// holds at least two rows whatever the budget (every iteration of SMO
// needs two).
func newSMOCache(n, budget int) *smoCache {
	c := &smoCache{rows: make([][]float64, n), lens: make([]int, n), slots: min(n, max(2, budget/max(n, 1))),
		prev: make([]int, n+1), next: make([]int, n+1)}
	c.prev[n], c.next[n] = n, n
	return c
}

func (c *smoCache) unlink(i int) {
	c.next[c.prev[i]] = c.next[i]
	c.prev[c.next[i]] = c.prev[i]
}

// linkLast puts i at the most recently used end.
func (c *smoCache) linkLast(i int) {
	h := len(c.rows)
	c.next[i] = h
	c.prev[i] = c.prev[h]
	c.next[c.prev[h]] = i
	c.prev[h] = i
}

// evict drops row i from the cache and frees its slot.
func (c *smoCache) evict(i int) {
	c.unlink(i)
	c.free = append(c.free, c.rows[i])
	c.rows[i], c.lens[i] = nil, 0
}

// slot is a free slot: a new one while the budget allows, else the least
// recently used row's.
func (c *smoCache) slot() []float64 {
	if len(c.free) == 0 {
		if c.slots > 0 {
			c.slots--
			return make([]float64, len(c.rows))
		}
		c.evict(c.next[len(c.rows)])
	}
	s := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	return s
}

// get returns row i with room for want entries and how many of them are
// already computed; the caller fills the rest. The slice stays valid
// until the second next call of get (the row just used is never the
// least recently used) or the next swap.
func (c *smoCache) get(i, want int) ([]float64, int) {
	if len(c.pending) > 0 {
		c.flush()
	}
	if c.rows[i] == nil {
		c.rows[i] = c.slot()
	} else {
		c.unlink(i)
	}
	have := c.lens[i]
	c.lens[i] = max(have, want)
	c.linkLast(i)
	return c.rows[i][:c.lens[i]], have
}

// swap exchanges the places of variables i and j (the solver's shrinking
// moves an inactive variable to the end): their rows at once, and their
// entries in every cached row at the next get (flush), dropping the rows
// too short to hold both.
func (c *smoCache) swap(i, j int) {
	if i == j {
		return
	}
	if i > j {
		i, j = j, i
	}
	if c.rows[i] != nil {
		c.unlink(i)
	}
	if c.rows[j] != nil {
		c.unlink(j)
	}
	c.rows[i], c.rows[j] = c.rows[j], c.rows[i]
	c.lens[i], c.lens[j] = c.lens[j], c.lens[i]
	if c.rows[i] != nil {
		c.linkLast(i)
	}
	if c.rows[j] != nil {
		c.linkLast(j)
	}
	c.pending = append(c.pending, [2]int{i, j})
}

// flush applies the pending swaps to the entries of the cached rows, a
// row at a time (whichever place the row now has, its entries move the
// same way), so that a row stays in the processor's cache through all of
// them: one pass of swaps over every row, not every row for each swap.
func (c *smoCache) flush() {
	h := len(c.rows)
	for r := c.next[h]; r != h; {
		nx := c.next[r]
		row, n := c.rows[r], c.lens[r]
		for _, p := range c.pending {
			if n <= p[0] {
				continue
			}
			if n <= p[1] {
				c.evict(r)
				break
			}
			row[p[0]], row[p[1]] = row[p[1]], row[p[0]]
		}
		r = nx
	}
	c.pending = c.pending[:0]
}
