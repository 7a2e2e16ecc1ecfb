package serve

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"github.com/pkg/sftp"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
)

// A person reaches their own directory over SFTP (sftp, scp, rsync over
// sftp): to fetch their exports, saved models and history, and to upload
// data to train on. The SFTP root "/" is their directory and nothing
// else: each name's directory is resolved through confine (so "..", an
// absolute path and a link leaving it are refused as the lab refuses
// them), and each file is then reached through an os.Root on the
// directory, which refuses a link leaving it at the moment of use too.
// Files may be written, renamed and removed inside it, except the lab's
// own (the run history and its lock); links are never made, nor read (a
// link's target would name the server's directories).

// maxUpload is the largest file an upload may write; maxOwn is what a
// person's directory may hold in all (uploads, and what their labs wrote
// there), past which uploads are refused.
const (
	maxUpload = 1 << 30
	maxOwn    = 2e9
)

// usage is what a person's directory holds, shared by their SFTP sessions:
// measured when a file is opened for writing, grown by each write.
type usage struct {
	mu    sync.Mutex
	bytes int64
	limit int64
}

// measure counts the directory's regular files again (labs write there
// too, and files are removed).
func (u *usage) measure(dir string) {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	u.mu.Lock()
	u.bytes = n
	u.mu.Unlock()
}

// grow takes n more bytes, or refuses them past the limit.
func (u *usage) grow(name string, n int64) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if n > u.limit-u.bytes {
		return &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("your directory may hold at most %s in all; remove files to make room", engine.Bytes(float64(u.limit)))}
	}
	u.bytes += n
	return nil
}

// usageOf is u's usage, shared by their sessions.
func (s *Server) usageOf(u user) *usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	us, ok := s.usage[u.id]
	if !ok {
		us = &usage{limit: cmp.Or(s.cfg.maxOwn, maxOwn)}
		s.usage[u.id] = us
	}
	return us
}

// serveFiles is the "sftp" subsystem's handler: the person's own
// directory, for as long as the session lasts. SFTP sessions count apart
// from labs, with the same cap.
func (s *Server) serveFiles(sess ssh.Session) {
	u, _, why := s.userOf(sess)
	log := s.log.With("user", u.name, "key", u.fingerprint, "remote", sess.RemoteAddr().String())
	if why != "" {
		log.Warn("sftp refused", "reason", why)
		_ = sess.Exit(1)
		return
	}
	home, err := s.home(u)
	var root *os.Root
	if err == nil {
		root, err = os.OpenRoot(home.Dir())
	}
	if err != nil {
		log.Error("no directory for the user", "error", err.Error())
		_ = sess.Exit(1)
		return
	}
	defer root.Close()
	f := &userFiles{home: home, root: root, log: log, used: s.usageOf(u)}
	in := &requests{Session: sess}
	in.last.Store(time.Now().UnixNano())
	rs := sftp.NewRequestServer(in, f.handlers())
	// Shutdown cuts the connection: closing the session alone would leave
	// a write to a client that reads nothing waiting.
	var conn io.Closer = sess
	if c, ok := sess.Context().Value(ssh.ContextKeyConn).(io.Closer); ok {
		conn = &struct{ io.Closer }{c} // one key per session, however many a connection has
	}
	s.mu.Lock()
	switch {
	case s.closing:
		why = "the server is shutting down"
	case len(s.transfers) >= s.cfg.MaxSessions:
		why = fmt.Sprintf("all %d SFTP sessions of this server are in use", s.cfg.MaxSessions)
	default:
		s.transfers[conn] = struct{}{}
		s.sessions.Add(1)
	}
	s.mu.Unlock()
	if why != "" {
		log.Info("sftp refused", "reason", why)
		_ = sess.Exit(1)
		return
	}
	defer s.sessions.Done()
	log.Info("sftp start")
	served := make(chan struct{})
	go s.idleFiles(in, conn, served, log)
	err = rs.Serve()
	close(served)
	// not rs.Close: the session ends with its exit status (ssh.Session.Exit)
	s.mu.Lock()
	delete(s.transfers, conn)
	s.mu.Unlock()
	if err != nil && !errors.Is(err, io.EOF) {
		log.Info("sftp ended by an error", "error", err.Error())
	}
	log.Info("sftp end", "files_read", f.read.Load(), "files_written", f.written.Load())
}

// requests is an SFTP session's stream, noting when the client last asked
// for something.
type requests struct {
	ssh.Session
	last atomic.Int64 // unix nanoseconds
}

func (r *requests) Read(p []byte) (int, error) {
	n, err := r.Session.Read(p)
	if n > 0 {
		r.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// idleFiles closes an SFTP session once it has asked for nothing for
// --idle-timeout, as a lab nobody types in is closed: the sessions are
// capped, and one held open for ever would keep a place. It closes the
// session alone (a lab may share its connection, multiplexed by the
// client), and cuts the connection only when the session has not ended
// after the grace (a client that reads nothing holds its writes).
func (s *Server) idleFiles(in *requests, conn io.Closer, served <-chan struct{}, log *slog.Logger) {
	d := s.cfg.IdleTimeout
	if d <= 0 {
		return
	}
	t := time.NewTicker(max(d/10, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-served:
			return
		case <-t.C:
			if time.Since(time.Unix(0, in.last.Load())) < d {
				continue
			}
			log.Info("sftp closed", "reason", "idle", "seconds", d.Seconds())
			_ = in.Session.Close()
			grace := time.NewTimer(s.closeGrace)
			defer grace.Stop()
			select {
			case <-served:
			case <-grace.C:
				log.Warn("connection cut", "reason", "the SFTP session did not end once closed (the client reads nothing)")
				_ = conn.Close()
			}
			return
		}
	}
}

// userFiles serves one SFTP session of one person.
type userFiles struct {
	home          *confine.Root
	root          *os.Root
	log           *slog.Logger
	used          *usage
	read, written atomic.Int64 // files opened
}

// handlers are the SFTP request server's handlers on f.
func (f *userFiles) handlers() sftp.Handlers {
	return sftp.Handlers{FileGet: f, FilePut: f, FileCmd: f, FileList: f}
}

// errReserved refuses a write to one of the lab's own files.
var errReserved = errors.New("the lab keeps this file itself: it can be fetched, not replaced or removed")

// rel is the name an SFTP request gives (absolute, cleaned by the request
// server) as a path relative to the person's directory, its parent
// resolved and confined; the last part is left for os.Root, so that a
// link is removed or renamed as itself.
func (f *userFiles) rel(name string) (string, error) {
	name = path.Clean("/" + name)
	if name == "/" {
		return ".", nil
	}
	dir, base := path.Split(name)
	parent := "."
	if dir != "/" {
		real, err := f.home.Path(filepath.FromSlash(path.Clean(dir)[1:]))
		if err != nil {
			if errors.Is(err, confine.ErrOutside) {
				f.log.Warn("sftp refused", "path", name, "reason", "outside the user's directory")
				return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
			}
			return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		parent = f.home.Rel(real)
	}
	return filepath.Join(parent, base), nil
}

// writable is rel for a name about to be written, removed or renamed.
func (f *userFiles) writable(name string) (string, error) {
	rel, err := f.rel(name)
	if err == nil && (rel == "." || runs.OwnFile(rel)) {
		f.log.Warn("sftp refused", "path", name, "reason", "the lab's own file")
		return "", &fs.PathError{Op: "write", Path: name, Err: errReserved}
	}
	return rel, err
}

// shown turns an error of os.Root into one naming the SFTP path, never
// the server's directories.
func shown(name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe):
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	case errors.As(err, &le):
		return &fs.PathError{Op: le.Op, Path: name, Err: le.Err}
	}
	return fmt.Errorf("%s: %w", name, sftp.ErrSSHFxFailure)
}

// Fileread opens a regular file for reading.
func (f *userFiles) Fileread(r *sftp.Request) (io.ReaderAt, error) {
	rel, err := f.rel(r.Filepath)
	if err != nil {
		return nil, err
	}
	file, err := f.root.Open(rel)
	if err != nil {
		return nil, shown(r.Filepath, err)
	}
	if fi, err := file.Stat(); err != nil || !fi.Mode().IsRegular() {
		file.Close()
		return nil, &fs.PathError{Op: "open", Path: r.Filepath, Err: errors.New("not a regular file")}
	}
	f.read.Add(1)
	return file, nil
}

// Filewrite opens a file for writing, made when missing.
func (f *userFiles) Filewrite(r *sftp.Request) (io.WriterAt, error) {
	rel, err := f.writable(r.Filepath)
	if err != nil {
		return nil, err
	}
	flags := os.O_WRONLY
	pf := r.Pflags()
	if pf.Creat {
		flags |= os.O_CREATE
	}
	if pf.Trunc {
		flags |= os.O_TRUNC
	}
	if pf.Excl {
		flags |= os.O_EXCL
	}
	file, err := f.root.OpenFile(rel, flags, 0o644)
	if err != nil {
		return nil, shown(r.Filepath, err)
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		file.Close()
		return nil, &fs.PathError{Op: "open", Path: r.Filepath, Err: errors.New("not a regular file")}
	}
	f.written.Add(1)
	f.log.Info("sftp write", "path", r.Filepath)
	f.used.measure(f.home.Dir())
	return &capped{File: file, name: r.Filepath, used: f.used, end: fi.Size(), log: f.log}, nil
}

// capped refuses writes past maxUpload, and past what the person's
// directory may hold.
type capped struct {
	*os.File
	name string
	used *usage
	log  *slog.Logger
	mu   sync.Mutex
	end  int64 // the file's size as its writes grew it
}

func (c *capped) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off > maxUpload-int64(len(p)) { // not off+len(p): it overflows near MaxInt64
		return 0, &fs.PathError{Op: "write", Path: c.name, Err: fmt.Errorf("a file here may hold at most %d bytes", maxUpload)}
	}
	c.mu.Lock()
	if end := off + int64(len(p)); end > c.end {
		if err := c.used.grow(c.name, end-c.end); err != nil {
			c.mu.Unlock()
			c.log.Warn("sftp refused", "path", c.name, "reason", "the user's directory is full")
			return 0, err
		}
		c.end = end
	}
	c.mu.Unlock()
	n, err := c.File.WriteAt(p, off)
	return n, shown(c.name, err)
}

// Filecmd makes and removes directories, renames and removes files and
// sets their size, mode and times; links are refused.
func (f *userFiles) Filecmd(r *sftp.Request) error {
	switch r.Method {
	case "Mkdir":
		rel, err := f.writable(r.Filepath)
		if err != nil {
			return err
		}
		return shown(r.Filepath, f.root.Mkdir(rel, 0o755))
	case "Remove", "Rmdir":
		rel, err := f.writable(r.Filepath)
		if err != nil {
			return err
		}
		fi, err := f.root.Lstat(rel)
		if err != nil {
			return shown(r.Filepath, err)
		}
		if fi.IsDir() != (r.Method == "Rmdir") {
			return &fs.PathError{Op: "remove", Path: r.Filepath, Err: errors.New("a directory is removed with rmdir, a file with rm")}
		}
		return shown(r.Filepath, f.root.Remove(rel))
	case "Rename":
		from, err := f.writable(r.Filepath)
		if err != nil {
			return err
		}
		to, err := f.writable(r.Target)
		if err != nil {
			return err
		}
		if _, err := f.root.Lstat(to); err == nil {
			return &fs.PathError{Op: "rename", Path: r.Target, Err: fs.ErrExist} // as SFTP's rename says
		}
		return shown(r.Filepath, f.root.Rename(from, to))
	case "Setstat":
		return f.setstat(r)
	}
	return sftp.ErrSSHFxOpUnsupported // Link, Symlink
}

// PosixRename is a rename that replaces the target (OpenSSH's extension).
func (f *userFiles) PosixRename(r *sftp.Request) error {
	from, err := f.writable(r.Filepath)
	if err != nil {
		return err
	}
	to, err := f.writable(r.Target)
	if err != nil {
		return err
	}
	return shown(r.Filepath, f.root.Rename(from, to))
}

// setstat sets what the client asks of size, mode (permission bits
// only) and times; owners are left as they are.
func (f *userFiles) setstat(r *sftp.Request) error {
	rel, err := f.writable(r.Filepath)
	if err != nil {
		return err
	}
	flags, attrs := r.AttrFlags(), r.Attributes()
	if flags.Size {
		file, err := f.root.OpenFile(rel, os.O_WRONLY, 0)
		if err != nil {
			return shown(r.Filepath, err)
		}
		var fi fs.FileInfo
		switch fi, err = file.Stat(); {
		case err != nil:
		case attrs.Size > maxUpload:
			err = fmt.Errorf("a file here may hold at most %d bytes", maxUpload)
		case int64(attrs.Size) > fi.Size():
			f.used.measure(f.home.Dir())
			err = f.used.grow(r.Filepath, int64(attrs.Size)-fi.Size())
		}
		if err == nil {
			err = file.Truncate(int64(attrs.Size))
		}
		file.Close()
		if err != nil {
			return shown(r.Filepath, err)
		}
	}
	if flags.Permissions {
		if err := f.root.Chmod(rel, fs.FileMode(attrs.Mode)&fs.ModePerm); err != nil {
			return shown(r.Filepath, err)
		}
	}
	if flags.Acmodtime {
		if err := f.root.Chtimes(rel, time.Unix(int64(attrs.Atime), 0), time.Unix(int64(attrs.Mtime), 0)); err != nil {
			return shown(r.Filepath, err)
		}
	}
	return nil
}

// Filelist lists a directory, or stats a name (following a link that
// stays inside).
func (f *userFiles) Filelist(r *sftp.Request) (sftp.ListerAt, error) {
	rel, err := f.rel(r.Filepath)
	if err != nil {
		return nil, err
	}
	switch r.Method {
	case "List":
		dir, err := f.root.Open(rel)
		if err != nil {
			return nil, shown(r.Filepath, err)
		}
		defer dir.Close()
		entries, err := dir.ReadDir(-1)
		if err != nil {
			return nil, shown(r.Filepath, err)
		}
		infos := make([]fs.FileInfo, 0, len(entries))
		for _, e := range entries {
			if fi, err := e.Info(); err == nil {
				infos = append(infos, fi)
			}
		}
		return listing(infos), nil
	case "Stat":
		fi, err := f.root.Stat(rel)
		if err != nil {
			return nil, shown(r.Filepath, err)
		}
		return listing{fi}, nil
	}
	return nil, sftp.ErrSSHFxOpUnsupported // Readlink
}

// Lstat stats a name itself, a link as a link.
func (f *userFiles) Lstat(r *sftp.Request) (sftp.ListerAt, error) {
	rel, err := f.rel(r.Filepath)
	if err != nil {
		return nil, err
	}
	fi, err := f.root.Lstat(rel)
	if err != nil {
		return nil, shown(r.Filepath, err)
	}
	return listing{fi}, nil
}

// listing is a ListerAt over file infos.
type listing []fs.FileInfo

func (l listing) ListAt(to []fs.FileInfo, offset int64) (int, error) {
	if offset >= int64(len(l)) {
		return 0, io.EOF
	}
	n := copy(to, l[offset:])
	if n < len(to) {
		return n, io.EOF
	}
	return n, nil
}
