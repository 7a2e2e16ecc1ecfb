package runs

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
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
	Run     *Record   `json:"run"`
}

// Title is the entry's name, or its data and model.
func (e *Entry) Title() string {
	if e.Name != "" {
		return e.Name
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

func (h *History) lockPath() string { return filepath.Join(h.Dir, "history.lock") }

// NewEntry makes the history's entry for a finished run, with a new id.
func NewEntry(r *Record) *Entry {
	return &Entry{ID: newID(), Time: r.Started.UTC().Truncate(time.Millisecond), Seconds: r.Wall.Seconds(),
		Version: Version, Run: r}
}

// newID is eight random hex digits: short enough to type, and two
// processes appending at once never need to agree on a counter.
func newID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Line is the entry as the history holds it, one JSON line.
func (e *Entry) Line() ([]byte, error) {
	line, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	return append(line, '\n'), nil
}

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

// Read reads every entry, oldest first. Lines that are not entries (a
// torn last line after a crash, a line edited by hand) are skipped and
// counted in skipped; a history that does not exist yet is empty.
func (h *History) Read() (entries []*Entry, skipped int, err error) {
	b, err := os.ReadFile(h.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("run history: %w", err)
	}
	entries, skipped = parseEntries(b)
	return entries, skipped, nil
}

// parseEntries reads the lines of a history file.
func parseEntries(b []byte) (entries []*Entry, skipped int) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil || e.ID == "" || e.Run == nil {
			skipped++
			continue
		}
		e.Run.Started, e.Run.Wall = e.Time, time.Duration(e.Seconds*float64(time.Second))
		entries = append(entries, &e)
	}
	return entries, skipped
}

// ErrNoRun says an id names no run of the history.
var ErrNoRun = errors.New("no such run in the history")

// Find is the entry whose id is id, or starts with it when that prefix
// is unique.
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
	return nil, fmt.Errorf("%q names %d runs: give more of the id", id, len(found))
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
	b, err := os.ReadFile(h.Path())
	if err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	var out bytes.Buffer
	found := false
	for line := range bytes.Lines(b) {
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(line, &head) != nil || head.ID != id {
			out.Write(line)
			if !bytes.HasSuffix(line, []byte{'\n'}) {
				out.WriteByte('\n')
			}
			continue
		}
		found = true
		entries, _ := parseEntries(line)
		if len(entries) != 1 {
			return fmt.Errorf("run history: run %s cannot be read back", id)
		}
		e := change(entries[0])
		if e == nil {
			continue
		}
		nb, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("run history: %w", err)
		}
		out.Write(append(nb, '\n'))
	}
	if !found {
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
	var params []string
	for k, v := range Settings(e.Run.Params) {
		params = append(params, k+"="+v)
	}
	slices.Sort(params)
	return strings.Join([]string{e.ID, e.Name, star, e.Run.Data.Source, e.Run.Data.Target, e.Run.Model,
		strings.Join(params, " "), string(e.Run.Status)}, " ")
}
