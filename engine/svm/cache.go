package svm

// smoCache keeps the kernel rows the SMO solver asked for lately, least
// recently used first out, within a budget of float64 values (LIBSVM's
// Cache). A row may be cached only in part: its first lens[i] entries,
// those of the variables that were active when it was computed.
type smoCache struct {
	rows   [][]float64
	lens   []int
	prev   []int // LRU list over row indices; index len(rows) is its head
	next   []int
	budget int // values that may still be cached
}

// newSMOCache is a cache for n rows holding at most budget values.
func newSMOCache(n, budget int) *smoCache {
	c := &smoCache{rows: make([][]float64, n), lens: make([]int, n),
		prev: make([]int, n+1), next: make([]int, n+1), budget: budget}
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

// evict drops row i from the cache.
func (c *smoCache) evict(i int) {
	c.unlink(i)
	c.budget += c.lens[i]
	c.rows[i], c.lens[i] = nil, 0
}

// get returns row i with room for want entries and how many of them are
// already computed; the caller fills the rest. The slice stays valid
// until the next call of get or swap.
func (c *smoCache) get(i, want int) ([]float64, int) {
	have := c.lens[i]
	if have > 0 {
		c.unlink(i)
	}
	if more := want - have; more > 0 {
		h := len(c.rows)
		for c.budget < more && c.next[h] != h {
			c.evict(c.next[h])
		}
		grown := make([]float64, want)
		copy(grown, c.rows[i][:have])
		c.rows[i], c.lens[i] = grown, want
		c.budget -= more
	}
	c.linkLast(i)
	return c.rows[i], have
}

// swap exchanges the places of variables i and j (the solver's shrinking
// moves an inactive variable to the end): their rows, and their entries
// in every cached row, dropping the rows too short to hold both.
func (c *smoCache) swap(i, j int) {
	if i == j {
		return
	}
	if i > j {
		i, j = j, i
	}
	if c.lens[i] > 0 {
		c.unlink(i)
	}
	if c.lens[j] > 0 {
		c.unlink(j)
	}
	c.rows[i], c.rows[j] = c.rows[j], c.rows[i]
	c.lens[i], c.lens[j] = c.lens[j], c.lens[i]
	if c.lens[i] > 0 {
		c.linkLast(i)
	}
	if c.lens[j] > 0 {
		c.linkLast(j)
	}
	h := len(c.rows)
	for r := c.next[h]; r != h; {
		nx := c.next[r]
		if c.lens[r] > i {
			if c.lens[r] > j {
				c.rows[r][i], c.rows[r][j] = c.rows[r][j], c.rows[r][i]
			} else {
				c.evict(r)
			}
		}
		r = nx
	}
}
