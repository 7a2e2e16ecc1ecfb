package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Save writes the record as indented JSON to path, atomically (WriteFile),
// after CheckTarget: never over the data the record was read from.
func Save(path string, r *Record) error {
	if err := CheckTarget(path, r.Inputs()...); err != nil {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFile(path, b.Bytes())
}

// Load reads a record that Save (or `tealab train --save`) wrote.
func Load(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// tempPattern is the name (os.CreateTemp's pattern) of the temporary file
// WriteFile writes before renaming it to base.
func tempPattern(base string) string { return "." + base + ".*.tmp" }

// WriteFile writes data to path so that path holds either its old content
// or all of data, never a part: it writes a temporary file in the same
// directory, syncs it, then renames it over path. Every file tealab
// produces (saved runs, run history, model files) is written this way, so
// a full disk or a killed process never leaves a half-written file where a
// good one was. A symbolic link is written through (its target is
// replaced, keeping the link); anything but a regular file or a new name
// (a directory, a named pipe, a device) is refused, as the rename would
// replace it with a file.
func WriteFile(path string, data []byte) (err error) {
	target, old, err := writable(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if old != nil {
		mode = old.Mode().Perm()
	}
	if err = os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, target)
}

// CheckTarget says whether tealab may write a file at path (WriteFile's
// rules: a regular file, a new name in a directory that exists, or a
// symbolic link to either) and that path is none of inputs, the data files
// a run reads (paths; datasets.Stdin is standard input when it is a file).
// CheckReads checks against other files too.
func CheckTarget(path string, inputs ...string) error {
	reads := make([]Read, len(inputs))
	for i, in := range inputs {
		reads[i] = Read{Path: in}
	}
	return CheckReads(path, reads...)
}

// A Read is a file a run reads or writes besides path, for CheckReads:
// What says what it is to the run, as a refusal names it ("the recipe this
// run replays"); "" is the run's data.
type Read struct{ Path, What string }

// CheckReads is CheckTarget against any files: path must not be one of
// reads. Files are compared by identity, so a hard link, a symbolic link or
// another spelling of one is that file; a new name is compared with the
// new names among reads (another output) by its directory and base name.
// A person hears of a target that cannot be written before a long fit, not
// after.
func CheckReads(path string, reads ...Read) error {
	target, old, err := writable(path)
	if err != nil {
		return err
	}
	for _, in := range reads {
		if !isTarget(target, old, in.Path) {
			continue
		}
		if in.What == "" {
			return fmt.Errorf("%s is %s: saving there would replace the data with the report; choose another file name",
				path, inputName(path, in.Path))
		}
		return fmt.Errorf("%s is %s (%s): writing there would replace it; choose another file name", path, in.What, in.Path)
	}
	return nil
}

// isTarget says whether in is the file target (writable's: old describes
// it, nil for a new name).
func isTarget(target string, old os.FileInfo, in string) bool {
	stdin := strings.TrimSpace(in) == datasets.Stdin
	if old == nil {
		if stdin {
			return false
		}
		other, was, err := writable(in)
		if err != nil || was != nil || filepath.Base(other) != filepath.Base(target) {
			return false
		}
		da, errA := os.Stat(filepath.Dir(target))
		db, errB := os.Stat(filepath.Dir(other))
		return errA == nil && errB == nil && os.SameFile(da, db)
	}
	var fi os.FileInfo
	var err error
	if stdin {
		fi, err = os.Stdin.Stat()
	} else {
		fi, err = os.Stat(in)
	}
	return err == nil && fi.Mode().IsRegular() && os.SameFile(fi, old)
}

// OpenRegular opens path to be read whole, after looking at what it is: a
// regular file (through symbolic links unless noLinks) of at most max
// bytes. Anything else is refused before it is opened or read, since a
// named pipe blocks the open, /dev/zero never ends and a huge file is not
// one tealab wrote; what names the file in the errors ("model file").
func OpenRegular(path, what string, max int64, noLinks bool) (*os.File, error) {
	stat := os.Stat
	if noLinks {
		stat = os.Lstat
	}
	fi, err := stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s %s is a symbolic link; tealab reads it only as a regular file (replace the link by the file)", what, path)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s %s is %s, not a regular file", what, path, kindOf(fi.Mode()))
	case fi.Size() > max:
		return nil, fmt.Errorf("%s %s holds %s, more than the %s a %s tealab wrote can hold", what, path,
			engine.Bytes(float64(fi.Size())), engine.Bytes(float64(max)), what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		f.Close()
		return nil, fmt.Errorf("%s %s changed while it was opened; try again", what, path)
	}
	return f, nil
}

// maxLinks is how many symbolic links writable follows before it gives up
// (Linux's limit).
const maxLinks = 40

// writable resolves path through symbolic links to the file a write
// replaces, and checks that it is a regular file (old is its description)
// or a new name in a directory that exists (old is nil).
func writable(path string) (target string, old os.FileInfo, err error) {
	target = path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target, nil, newName(path, target)
		case err != nil:
			return "", nil, err
		case fi.Mode().IsRegular():
			return target, fi, nil
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", nil, fmt.Errorf("%s%s is %s, not a regular file: give the name of a file to write (a new one, or a regular file to replace)",
				path, linkNote(path, target), kindOf(fi.Mode()))
		case hops == maxLinks:
			return "", nil, fmt.Errorf("%s: more than %d symbolic links in a row (a loop?)", path, maxLinks)
		}
		dest, err := os.Readlink(target)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's directory as the system reads it:
			// joined, not cleaned, so that ".." follows the real parent.
			dest = target[:strings.LastIndexByte(target, filepath.Separator)+1] + dest
		}
		target = dest
	}
}

// newName checks that target, a name that does not exist yet (path, or
// where its links lead), is in a directory that does.
func newName(path, target string) error {
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s%s: directory %s does not exist; create it first", path, linkNote(path, target), dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s%s: %s is not a directory", path, linkNote(path, target), dir)
	}
	return nil
}

// linkNote names where path leads when links led elsewhere.
func linkNote(path, target string) string {
	if target == path {
		return ""
	}
	return " (a link to " + target + ")"
}

// kindOf names a file type that is not a regular file or a link.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file (" + m.Type().String() + ")"
}

// inputName describes the input file that path is.
func inputName(path, in string) string {
	switch in = strings.TrimSpace(in); {
	case in == datasets.Stdin:
		return "the file on standard input, the data this run reads"
	case in == path:
		return "the data this run reads"
	}
	return "the data this run reads (" + in + ", by another name)"
}
