package kit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/runs"
)

// Files confines a session's files: data are opened under Data, or under
// Home when named ~/ (the person's uploads), only; saved models, exports
// and the run history are written under Home only.
type Files struct {
	Data *confine.Root
	Home *confine.Root
}

// TrainSlot waits for the right to train (a server's cap on concurrent
// runs), telling queued its place in line (1: next) while it waits, and
// returns what gives the slot back; an error when ctx ends first.
type TrainSlot func(ctx context.Context, queued func(place int)) (release func(), err error)

// HoldSlot waits for a training slot for a sweep or an experiment, as a
// run does (without telling its place: those screens show their own
// progress); release gives it back.
func (c *Common) HoldSlot(ctx context.Context) (release func(), err error) {
	if c.Slot == nil {
		return func() {}, nil
	}
	return c.Slot(ctx, func(int) {})
}

// DataSource is the file source names inside the session's data
// directory, or, after ~/, inside the person's own (their uploads),
// resolved; built-in and generator names pass as they are.
func (c *Common) DataSource(source string) (string, error) {
	if c.Files == nil || datasets.IsName(source) {
		return source, nil
	}
	if own, ok := strings.CutPrefix(source, "~/"); ok {
		return c.Files.Home.Path(own)
	}
	return c.Files.Data.Path(source)
}

// WritePath is where a file the person names is written: the name itself
// (a leading ~/ is their home), or, confined, inside their own directory.
// The lab's own files (its run history) are refused: a saved model must
// never replace them.
func (c *Common) WritePath(name string) (string, error) {
	path := c.TypedPath(name)
	if c.Files != nil {
		var err error
		if path, err = c.Files.Home.Path(name); err != nil {
			return "", err
		}
	}
	if h := c.Store(); h != nil {
		dir, _ := filepath.Abs(h.Dir)
		at, _ := filepath.Abs(path)
		if filepath.Dir(at) == dir && runs.OwnFile(filepath.Base(at)) {
			return "", fmt.Errorf("%s is the lab's own file (your run history): choose another name", c.Shown(at))
		}
	}
	return path, nil
}

// TypedPath is a path the person typed: a leading ~/ is their home
// directory, except in a confined lab, where the server's home is not
// theirs and names are relative to the directory they are confined to.
func (c *Common) TypedPath(p string) string {
	if c.Files != nil {
		return p
	}
	return expandHome(p)
}

// Shown is a path as the lab shows it: in a confined lab, relative to the
// person's own directory or to the data directory, never naming the
// server's directories; elsewhere p itself.
func (c *Common) Shown(p string) string {
	if c.Files == nil || !filepath.IsAbs(p) {
		return p
	}
	for _, r := range []*confine.Root{c.Files.Home, c.Files.Data} {
		if r.Contains(p) {
			return r.Rel(p)
		}
	}
	return filepath.Base(p)
}

// Hide is a message with the confined directories' places on the server
// taken out (an operating system's error names the full path); msg itself
// in a lab that is not confined.
func (c *Common) Hide(msg string) string {
	if c.Files == nil {
		return msg
	}
	for _, r := range []struct {
		dir, name string
	}{{c.Files.Home.Dir(), "your directory"}, {c.Files.Data.Dir(), "the data directory"}} {
		msg = strings.ReplaceAll(msg, r.dir+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, r.dir, r.name)
	}
	return msg
}

// ReportDir is the directory exports are written in: ExportDir, or,
// confined, the person's own directory.
func (c *Common) ReportDir() string {
	if c.Files == nil {
		return c.ExportDir
	}
	return c.Files.Home.Dir()
}

// Store is the run history the lab records in: the confined session's own,
// else the user's (nil when off).
func (c *Common) Store() *runs.History {
	if c.Files != nil {
		return &runs.History{Dir: c.Files.Home.Dir()}
	}
	return openStore()
}

// OpenData is runs.Data.Open with its source confined, and named as the
// data screen names it (shown).
func (c *Common) OpenData(d runs.Data) (*datasets.Dataset, error) {
	var err error
	if d.Source, err = c.DataSource(d.Source); err != nil {
		return nil, err
	}
	ds, err := d.Open()
	if err != nil {
		return nil, errors.New(c.Hide(err.Error()))
	}
	ds.Source = c.Shown(ds.Source)
	return ds, nil
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

// openStore is the history the lab records in; nil when TEALAB_HISTORY is
// off or there is no data directory.
func openStore() *runs.History {
	if !runs.HistoryOn() {
		return nil
	}
	h, err := runs.OpenHistory()
	if err != nil {
		return nil
	}
	return h
}
