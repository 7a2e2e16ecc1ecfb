// Package confine keeps a session's file names inside one directory, as
// `tealab serve` needs: a person connecting over SSH may open files under
// the server's data directory and write under their own directory, and
// nothing else on the machine. Names are resolved as the operating system
// would resolve them (symbolic links followed), then checked, so that
// `..`, an absolute path elsewhere and a link that leaves the directory are
// all refused the same way.
package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is the error (wrapped) of a name that leaves the root.
var ErrOutside = errors.New("outside the directory")

// Root is a directory that names are confined to.
type Root struct {
	dir  string // absolute, symbolic links resolved
	what string // how messages call it: "the data directory"
}

// New confines names to dir, which must exist; what names it in messages
// ("the data directory").
func New(dir, what string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s %s is not a directory", what, dir)
	}
	return &Root{dir: abs, what: what}, nil
}

// Dir is the root directory, absolute and with links resolved.
func (r *Root) Dir() string { return r.dir }

// Path resolves name, relative to the root or absolute inside it, to the
// path it reaches once links are followed, and refuses it unless that lies
// inside the root. A name that does not exist yet (a file about to be
// written) is resolved through its nearest existing parent.
func (r *Root) Path(name string) (string, error) {
	clean := strings.TrimSpace(name)
	if clean == "" {
		return "", fmt.Errorf("no file name given: name a file in %s", r.what)
	}
	p := clean
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	real, err := resolve(filepath.Clean(p))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // its path would name the server's directories
			err = pe.Err
		}
		return "", fmt.Errorf("%s: %w", r.shown(clean), err)
	}
	if !r.Contains(real) {
		return "", &outside{fmt.Sprintf("%s is outside %s: only files in it can be used here (name them relative to it, without ..)", r.shown(clean), r.what)}
	}
	return real, nil
}

// outside is the error of a name leaving the root: its message, and
// errors.Is(err, ErrOutside).
type outside struct{ msg string }

func (e *outside) Error() string        { return e.msg }
func (e *outside) Is(target error) bool { return target == ErrOutside }

// Contains reports whether the resolved path p is the root or inside it.
func (r *Root) Contains(p string) bool {
	rel, err := filepath.Rel(r.dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Rel is p relative to the root ("." for the root itself), for showing a
// path without the server's directories; p itself when outside.
func (r *Root) Rel(p string) string {
	if rel, err := filepath.Rel(r.dir, p); err == nil && r.Contains(p) {
		return rel
	}
	return p
}

// shown is name as a message gives it: relative to the root when it is
// spelled inside it, so that the server's own directories are not shown.
func (r *Root) shown(name string) string {
	if p := filepath.Clean(name); filepath.IsAbs(p) && r.Contains(p) {
		return r.Rel(p)
	}
	return name
}

// resolve follows the links of p; the part of p that does not exist yet is
// appended to its nearest existing parent, resolved.
func resolve(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A dangling link: where it points is unknown to EvalSymlinks, and
		// writing through it could land anywhere.
		return "", errors.New("a symbolic link to nothing")
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	rp, err := resolve(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(p)), nil
}
