package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/numfmt"
)

// Shape is the data a fit will see, from which a model estimates its
// memory before fitting (Spec.Memory).
type Shape struct {
	Rows    int // training rows
	Cols    int // features as the model receives them (one-hot columns counted)
	Classes int // classes of a classifier; 0 otherwise
	// KnownClasses is the number of classes a clustering is scored
	// against (its default number of clusters); 0 when unknown.
	KnownClasses int
}

// Need is memory a fit would allocate, the largest thing it is for, and
// what a person can do about it.
type Need struct {
	Bytes  float64
	What   string // e.g. "a 200000 x 200000 covariance"
	Advice string // e.g. "sample the rows, or use k-means"; "" for the usual
}

// Plus adds b to n, keeping the larger thing's name and advice.
func (n Need) Plus(b Need) Need {
	if b.Bytes > n.Bytes {
		n.What, n.Advice = b.What, b.Advice
	}
	n.Bytes += b.Bytes
	return n
}

// Times scales the bytes (a computation holding f such matrices at once).
func (n Need) Times(f float64) Need {
	n.Bytes *= f
	return n
}

// Matrix is the need of rows x cols float64 values, called what ("a
// covariance"): "a 200000 x 200000 covariance".
func Matrix(rows, cols int, what string) Need {
	return Need{Bytes: 8 * float64(rows) * float64(cols), What: fmt.Sprintf("a %d x %d %s", rows, cols, what)}
}

// Matrices is count such matrices: "5 100000 x 100000 class covariances".
func Matrices(count, rows, cols int, what string) Need {
	if count == 1 {
		return Matrix(rows, cols, what)
	}
	return Need{Bytes: 8 * float64(count) * float64(rows) * float64(cols),
		What: fmt.Sprintf("%d %d x %d %s", count, rows, cols, what)}
}

// MemoryEnv names the environment variable that sets the memory tealab
// may use ("8GB", "512MB"), instead of what the machine has free.
const MemoryEnv = "TEALAB_MEMORY"

// Memory is the memory a fit may use, in bytes, and who says so, as a
// phrase to follow the size ("this machine has available"): $TEALAB_MEMORY,
// or the machine's available memory (the kernel's MemAvailable, within a
// control group's limit), read at most every memoryFresh. 0 when unknown: nothing is refused
// then.
func Memory() (bytes float64, from string) {
	if s := os.Getenv(MemoryEnv); s != "" {
		if b, err := ParseBytes(s); err == nil && b > 0 {
			return b, "$" + MemoryEnv + " allows"
		}
	}
	return machineMemory()
}

// machine is the last reading of the machine's memory, kept for
// memoryFresh: a model list checks every model against it at once, and
// reading /proc each time cost more than the checks.
var machine struct {
	sync.Mutex
	at    time.Time
	bytes float64
	from  string
}

const memoryFresh = 500 * time.Millisecond

// machineMemory is what the machine (or this process's cgroup) allows.
func machineMemory() (float64, string) {
	machine.Lock()
	defer machine.Unlock()
	if !machine.at.IsZero() && time.Since(machine.at) < memoryFresh {
		return machine.bytes, machine.from
	}
	bytes, from := 0.0, ""
	avail := meminfo("MemAvailable")
	switch limit := cgroupLimit(); {
	case limit > 0 && (avail == 0 || limit < avail):
		bytes, from = limit, "this process's memory limit allows"
	case avail > 0:
		bytes, from = avail, "this machine has available"
	}
	machine.at, machine.bytes, machine.from = time.Now(), bytes, from
	return bytes, from
}

// meminfo reads a field of /proc/meminfo in bytes; 0 if there is none.
func meminfo(field string) float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// cgroupLimit is a cgroup v2 memory limit in bytes; 0 if none.
func cgroupLimit() float64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return 0 // "max": no limit
	}
	return v
}

// ParseBytes reads a size such as "8GB", "512 MB", "1.5GiB" or "1000000"
// (bytes).
func ParseBytes(s string) (float64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	units := []struct {
		suffix string
		scale  float64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}, {"B", 1}}
	scale := 1.0
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, scale = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size such as 8GB or 512MB", s)
	}
	return v * scale, nil
}

// Bytes writes a size for people: "320 GB", "1.5 GB", "640 MB".
func Bytes(b float64) string {
	switch {
	case b >= 1e12:
		return numfmt.Sig(b/1e12, 3) + " TB"
	case b >= 1e9:
		return numfmt.Sig(b/1e9, 3) + " GB"
	case b >= 1e6:
		return numfmt.Sig(b/1e6, 3) + " MB"
	}
	return numfmt.Sig(b/1e3, 3) + " kB"
}

// Accountant shares the memory among fits that run at once in one process
// (the labs of `tealab serve`): each fit reserves its estimate before it
// starts and gives it back when it ends, and a fit is refused when its
// estimate exceeds the memory less what the fits in progress have
// reserved. The machine's available memory already counts what those fits
// have allocated so far, so a reservation may be counted twice: the
// accountant errs on the side of refusing rather than of running out.
type Accountant struct {
	mu    sync.Mutex
	held  float64
	freed chan struct{} // closed when a reservation is given back (ReserveWait)
}

// Reserve reserves need for a fit called subject, or refuses it as
// CheckNeed does, saying what the fits in progress hold; release gives
// the reservation back (call it once the fit has ended).
func (a *Accountant) Reserve(subject string, need Need) (release func(), err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reserve(subject, need)
}

// reserve is Reserve with a.mu held.
func (a *Accountant) reserve(subject string, need Need) (release func(), err error) {
	have, from := Memory()
	if have > 0 && a.held > 0 {
		from += fmt.Sprintf(", less %s reserved by the runs in progress", Bytes(a.held))
		have = max(have-a.held, 1) // 0 would read as unknown
	}
	if err := refuse(subject, need, have, from); err != nil {
		return nil, err
	}
	a.held += need.Bytes
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			a.held -= need.Bytes
			if a.freed != nil {
				close(a.freed)
				a.freed = nil
			}
			a.mu.Unlock()
		})
	}, nil
}

// ReserveWait is Reserve for fits queued together (the points of a
// search on a pool of workers): while the need is refused only because of
// what the fits in progress hold, it waits for them to give memory back
// (or for ctx to end, whose error it returns); a need the memory cannot
// hold even alone is refused at once, as Reserve refuses it.
func (a *Accountant) ReserveWait(ctx context.Context, subject string, need Need) (release func(), err error) {
	for {
		a.mu.Lock()
		release, err := a.reserve(subject, need)
		if have, _ := Memory(); err == nil || a.held == 0 || need.Bytes > have {
			a.mu.Unlock()
			return release, err
		}
		if a.freed == nil {
			a.freed = make(chan struct{})
		}
		freed := a.freed
		a.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Held is the memory the fits in progress have reserved.
func (a *Accountant) Held() float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.held
}

// CheckNeed refuses a need the memory cannot hold: an ErrLimit error that
// gives the estimate, the reason and what to do ("lda on wide: a 200000 x
// 200000 covariance needs 320 GB, more than the 23.4 GB this machine has
// available (...)"); nil when it fits or the memory is unknown.
func CheckNeed(subject string, need Need) error {
	have, from := Memory()
	return refuse(subject, need, have, from)
}

// refuse is CheckNeed's verdict given the memory there is (have, said by
// from); have 0 is unknown.
func refuse(subject string, need Need, have float64, from string) error {
	if have <= 0 || need.Bytes <= have {
		return nil
	}
	problem := fmt.Sprintf("%s: %s needs %s, more than the %s %s", subject, need.What, Bytes(need.Bytes), Bytes(have), from)
	if need.Advice != "" {
		return Limitf("%s (%s)", problem, need.Advice)
	}
	return &advice.Error{Problem: problem, Marks: ErrLimit, Remedies: []advice.Remedy{
		{Kind: advice.Drop}, {Kind: advice.Reduce}, {Kind: advice.Sample}, {Kind: advice.Model}}}
}
