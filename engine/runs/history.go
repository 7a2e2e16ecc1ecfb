package runs

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
)

// The run history is one JSON line per run in history.jsonl under the
// user's data directory. A line is appended with one write to a file opened
// O_APPEND while holding an advisory lock, so two tealab processes never
// interleave their lines; a process killed mid-write leaves at most a torn
// last line, which reading skips and the next append closes off with a
// newline first, so it never swallows the run after it. Starring, renaming
// and deleting rewrite the file whole (WriteFile: temporary file and
// rename) under the same lock; the lock is a separate file, so an appender
// waiting for it never writes into a file a rewrite has just replaced.

// HistoryFile is the history's file name in HistoryDir.
const HistoryFile = "history.jsonl"

// Entry is one line of the history: the run, with what the history adds.
type Entry struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Seconds float64   `json:"duration"` // wall time of the run
	Version string    `json:"tealab"`
	Star    bool      `json:"star,omitempty"`
	Name    string    `json:"name,omitempty"`
	Run     *Record   `json:"run,omitempty"`
	// Lab is a run of one of the lectures' experiments (engine/lecture),
	// in place of Run: a history holds both, and a build from before
	// experiments skips these lines, which have no run.
	Lab *lecture.Record `json:"lab,omitempty"`

	held string // the id the line holds, when reading gave the run another (nthID)
}

// Title is the entry's name, or its data and model (an experiment's name).
func (e *Entry) Title() string {
	switch {
	case e.Name != "":
		return e.Name
	case e.Lab != nil:
		return "lab · " + e.Lab.Experiment
	}
	return e.Run.Data.Source + " · " + e.Run.Model
}

// History is the run history in one directory.
type History struct {
	Dir string
}

// HistoryDir is where the history lives: $XDG_DATA_HOME/tealab, else
// ~/.local/share/tealab.
func HistoryDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tealab"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no place for the run history: %w (set XDG_DATA_HOME)", err)
	}
	return filepath.Join(home, ".local", "share", "tealab"), nil
}

// HistoryOn says whether runs are recorded: yes unless $TEALAB_HISTORY
// is off (or 0, no, false).
func HistoryOn() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv("TEALAB_HISTORY"))) {
	case "off", "0", "no", "false":
		return false
	}
	return true
}

// OpenHistory is the history in HistoryDir.
func OpenHistory() (*History, error) {
	dir, err := HistoryDir()
	if err != nil {
		return nil, err
	}
	return &History{Dir: dir}, nil
}

// Path is the history file.
func (h *History) Path() string { return filepath.Join(h.Dir, HistoryFile) }

func (h *History) lockPath() string { return filepath.Join(h.Dir, lockFileName) }

// lockFileName is the history's lock's name in its directory.
const lockFileName = "history.lock"

// OwnFile reports whether name, relative to a history's directory, is a
// file the history keeps there itself: the history, its lock and the
// temporary file a rewrite of it goes through (WriteFile's). A saved
// model, an export or an upload must never replace one.
func OwnFile(name string) bool {
	name = filepath.Clean(name)
	temp, _ := filepath.Match(tempPattern(HistoryFile), name)
	return name == HistoryFile || name == lockFileName || temp
}

// NewEntry makes the history's entry for a finished run, with a new id.
func NewEntry(r *Record) *Entry {
	return &Entry{ID: newID(), Time: r.Started.UTC().Truncate(time.Millisecond), Seconds: r.Wall.Seconds(),
		Version: Version, Run: r}
}

// NewLabEntry makes the history's entry for a run of an experiment.
func NewLabEntry(r *lecture.Record) *Entry {
	return &Entry{ID: newID(), Time: r.Started.UTC().Truncate(time.Millisecond), Seconds: r.Wall.Seconds(),
		Version: Version, Lab: r}
}

// newID is 128 random bits in hex: two processes appending at once never
// need to agree on a counter, and a history of millions of runs never
// holds one id twice (eight hex digits, as ids once were, collide in a
// history of some ten thousand). A person types a prefix (Find), and
// lists show the shortest prefix that is unique (ShortIDs).
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Line is the entry as the history holds it, one JSON line, its curves
// thinned to MaxCurve points: a run on a million rows must not add megabytes of ROC
// points and per-step losses to a file read at every start.
func (e *Entry) Line() ([]byte, error) {
	line, err := json.Marshal(e.thinned())
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	return append(line, '\n'), nil
}

// MaxHistory is the size the history may grow to by appending: a run that
// would take it past this is not recorded, with a message saying how to
// make room. Reading has no limit (the file is read a line at a time).
const MaxHistory = 64 << 20

// ErrHistoryFull is returned (wrapped) by AppendLine when the history has
// reached MaxHistory.
var ErrHistoryFull = errors.New("the run history is full")

// Append adds the entry as one line. It creates the directory when
// needed; an error (a full disk, a read-only directory) leaves the history
// as it was, less at most the line being written.
func (h *History) Append(e *Entry) error {
	line, err := e.Line()
	if err != nil {
		return err
	}
	return h.AppendLine(line)
}

// AppendLine appends a line that Entry.Line made (a caller that must not
// share the record while it is written makes the line first).
func (h *History) AppendLine(line []byte) error {
	if err := os.MkdirAll(h.Dir, 0o755); err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	unlock, err := lockFile(h.lockPath())
	if err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	defer unlock()
	fi, err := os.Lstat(h.Path())
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return h.notRegular(fi)
	case err == nil && fi.Size()+int64(len(line)) > MaxHistory:
		return fmt.Errorf("run history %s: %w at %s: this run was not recorded; delete runs you no longer need, or move the file away to start a new one",
			h.Path(), ErrHistoryFull, engine.Bytes(float64(fi.Size())))
	}
	f, err := os.OpenFile(h.Path(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	if torn, err := endsTorn(f); err == nil && torn {
		line = append([]byte{'\n'}, line...) // close off a line a killed process left
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("run history %s: %w", h.Path(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("run history %s: %w", h.Path(), err)
	}
	return nil
}

// endsTorn says whether the file's last byte is not a newline.
func endsTorn(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false, err
	}
	r, err := os.Open(f.Name())
	if err != nil {
		return false, err
	}
	defer r.Close()
	var b [1]byte
	if _, err := r.ReadAt(b[:], fi.Size()-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}

// notRegular refuses a history that is not a regular file: a link could
// send the writes elsewhere, a named pipe would block, /dev/zero never end.
func (h *History) notRegular(fi fs.FileInfo) error {
	kind := kindOf(fi.Mode())
	if fi.Mode()&fs.ModeSymlink != 0 {
		kind = "a symbolic link"
	}
	return fmt.Errorf("run history %s is %s, not a regular file: move it away (tealab then starts a new history)", h.Path(), kind)
}

// Read reads every entry, oldest first, a line at a time. Lines that are
// not entries (a torn last line after a crash, a line edited by hand) are
// skipped and counted in skipped; a history that does not exist yet is
// empty, and one that is not a regular file is refused.
func (h *History) Read() (entries []*Entry, skipped int, err error) {
	f, err := h.open()
	if f == nil || err != nil {
		return nil, 0, err
	}
	defer f.Close()
	ids := map[string]int{}
	err = eachLine(f, func(line []byte) {
		if e := parseEntry(line, ids); e != nil {
			entries = append(entries, e)
		} else if len(bytes.TrimSpace(line)) > 0 {
			skipped++
		}
	})
	if err != nil {
		return nil, 0, fmt.Errorf("run history %s: %w", h.Path(), err)
	}
	return entries, skipped, nil
}

// open opens the history to read it: nil and no error when there is none
// yet.
func (h *History) open() (*os.File, error) {
	fi, err := os.Lstat(h.Path())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("run history: %w", err)
	case !fi.Mode().IsRegular():
		return nil, h.notRegular(fi)
	}
	f, err := OpenRegular(h.Path(), "run history", math.MaxInt64, true)
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	return f, nil
}

// eachLine calls fn with each line of r (its newline included, when it has
// one), holding one line at a time.
func eachLine(r io.Reader, fn func(line []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			fn(line)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// parseEntry reads one line of a history file, its curves thinned; nil
// when it is not an entry. ids holds the ids read so far (nthID): a run of
// an old history whose id an earlier line already holds (eight hex digits
// could collide) is given a free id of its own, so that every run can be
// addressed, and edit writes it back under that id.
func parseEntry(line []byte, ids map[string]int) *Entry {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil || e.ID == "" || (e.Run == nil) == (e.Lab == nil) {
		return nil
	}
	if id := nthID(ids, e.ID); id != e.ID {
		e.ID, e.held = id, e.ID
	}
	wall := time.Duration(e.Seconds * float64(time.Second))
	if e.Lab != nil {
		e.Lab.Started, e.Lab.Wall = e.Time, wall
		return &e
	}
	e.Run.Started, e.Run.Wall = e.Time, wall
	return e.thinned() // a line from before curves were thinned holds no more in memory than a new one
}

// nthID is the id the history gives the next line holding id: id itself
// when no earlier line took it, else the first of id-2, id-3, … no earlier
// line took, literally or so. ids maps each id taken to the last number
// tried after it. Ids never repeat, whatever an old file holds, and once
// edit has written them back they read the same however lines are deleted.
func nthID(ids map[string]int, id string) string {
	if ids[id] == 0 {
		ids[id] = 1
		return id
	}
	for n := ids[id] + 1; ; n++ {
		if nth := fmt.Sprintf("%s-%d", id, n); ids[nth] == 0 {
			ids[id], ids[nth] = n, 1
			return nth
		}
	}
}

// ErrNoRun says an id names no run of the history.
var ErrNoRun = errors.New("no such run in the history")

// Find is the entry whose id is id, or starts with it when that prefix
// is unique; a prefix of several runs is refused, naming them.
func Find(entries []*Entry, id string) (*Entry, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	var found []*Entry
	for _, e := range entries {
		if e.ID == id {
			return e, nil
		}
		if id != "" && strings.HasPrefix(e.ID, id) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("%q: %w ('tealab runs' lists the ids)", id, ErrNoRun)
	}
	var names []string
	for _, e := range found[:min(len(found), 3)] {
		names = append(names, e.ID[:min(len(e.ID), len(id)+4)]+"…")
	}
	more := ""
	if len(found) > 3 {
		more = ", …"
	}
	return nil, fmt.Errorf("id %s matches %d runs: %s%s; give more characters", id, len(found), strings.Join(names, ", "), more)
}

// ShortIDs maps each entry's id to its shortest prefix no other entry
// shares, of at least 8 characters, as lists show them (Find takes any
// unique prefix).
func ShortIDs(entries []*Entry) map[string]string {
	sorted := make([]string, len(entries))
	for i, e := range entries {
		sorted[i] = e.ID
	}
	slices.Sort(sorted)
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		n := 8
		at, _ := slices.BinarySearch(sorted, e.ID)
		for _, j := range []int{at - 1, at + 1} { // the neighbours in order share the longest prefixes
			if j >= 0 && j < len(sorted) {
				n = max(n, commonPrefix(e.ID, sorted[j])+1)
			}
		}
		out[e.ID] = e.ID[:min(n, len(e.ID))]
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Star marks or unmarks the run id.
func (h *History) Star(id string, star bool) error {
	return h.edit(id, func(e *Entry) *Entry { e.Star = star; return e })
}

// Rename names the run id ("" drops its name).
func (h *History) Rename(id, name string) error {
	name = strings.Join(strings.Fields(name), " ")
	return h.edit(id, func(e *Entry) *Entry { e.Name = name; return e })
}

// Delete removes the run id.
func (h *History) Delete(id string) error {
	return h.edit(id, func(*Entry) *Entry { return nil })
}

// edit rewrites the history with the entry id changed by change (nil
// deletes it), under the lock. Lines it cannot read are kept as they were.
func (h *History) edit(id string, change func(*Entry) *Entry) error {
	unlock, err := lockFile(h.lockPath())
	if err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	defer unlock()
	f, err := h.open()
	if f == nil && err == nil {
		err = fmt.Errorf("%q: %w", id, ErrNoRun)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var out bytes.Buffer
	found := false
	ids := map[string]int{}
	var failed error
	err = eachLine(f, func(line []byte) {
		// Lines are told apart as Read tells them, so the id a person was
		// shown is the line changed, even among an old history's repeats.
		e := parseEntry(line, ids)
		if e == nil || failed != nil || (e.ID != id && e.held == "") {
			out.Write(line)
			if !bytes.HasSuffix(line, []byte{'\n'}) {
				out.WriteByte('\n')
			}
			return
		}
		if e.ID == id {
			found = true
			if e = change(e); e == nil {
				return
			}
		}
		// The changed run, and every run of an old history read under an id
		// its line does not hold ("-2"), are written under the id they were
		// read as: deleting a line then renumbers no other.
		nb, err := e.Line()
		if err != nil {
			failed = err
			return
		}
		out.Write(nb)
	})
	switch {
	case err != nil:
		return fmt.Errorf("run history %s: %w", h.Path(), err)
	case failed != nil:
		return failed
	case !found:
		return fmt.Errorf("%q: %w", id, ErrNoRun)
	}
	return WriteFile(h.Path(), out.Bytes())
}

// Filter keeps the entries whose text (id, name, star, data, model,
// parameters, status) contains every word of query, in any case.
func Filter(entries []*Entry, query string) []*Entry {
	words := strings.Fields(strings.ToLower(query))
	return slices.DeleteFunc(slices.Clone(entries), func(e *Entry) bool {
		text := strings.ToLower(e.SearchText())
		for _, w := range words {
			if !strings.Contains(text, w) {
				return true
			}
		}
		return false
	})
}

// SearchText is what Filter searches.
func (e *Entry) SearchText() string {
	star := ""
	if e.Star {
		star = "* starred"
	}
	if e.Lab != nil {
		return strings.Join([]string{e.ID, e.Name, star, "lab", e.Lab.Experiment, e.Lab.ArgsText(), string(e.Lab.Status)}, " ")
	}
	var params []string
	for k, v := range Settings(e.Run.Params) {
		params = append(params, k+"="+v)
	}
	slices.Sort(params)
	return strings.Join([]string{e.ID, e.Name, star, e.Run.Data.Source, e.Run.Data.Target, e.Run.Model,
		strings.Join(params, " "), string(e.Run.Status)}, " ")
}
