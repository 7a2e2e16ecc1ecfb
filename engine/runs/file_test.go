package runs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// write makes a file with text and mode in dir.
func write(t *testing.T, dir, name, text string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A symbolic link is written through: its target (here two links away,
// named relative to each link's directory) gets the data and keeps its
// permissions, and the links stay links.
func TestWriteFileFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := write(t, sub, "run.json", "old", 0o600)
	mid := filepath.Join(sub, "mid.json")
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("run.json", mid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/mid.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, target); got != "new" {
		t.Errorf("target holds %q", got)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", l, err)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target's mode became %v", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind in %s: %v", dir, entries)
	}
	// A link to a name that does not exist yet creates that file.
	dangling := filepath.Join(dir, "next.json")
	if err := os.Symlink("sub/new.json", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, filepath.Join(sub, "new.json")); got != "first" {
		t.Errorf("the link's target holds %q", got)
	}
}

// A directory, a named pipe, a device and a name in a missing directory are
// refused in one line that says what they are, and left as they were.
func TestWriteFileRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	linkToDir := filepath.Join(dir, "out")
	if err := os.Symlink(dir, linkToDir); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{dir, "is a directory"},
		{fifo, "is a named pipe"},
		{linkToDir, "(a link to " + dir + ") is a directory"},
		{filepath.Join(dir, "missing", "run.json"), "directory " + filepath.Join(dir, "missing") + " does not exist"},
	}
	if os.Geteuid() == 0 { // a character device like /dev/null (mknod needs root)
		dev := filepath.Join(dir, "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ path, want string }{dev, "is a character device"})
	}
	for _, c := range cases {
		err := WriteFile(c.path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.path, err, c.want)
		}
		if cerr := CheckTarget(c.path); cerr == nil || cerr.Error() != err.Error() {
			t.Errorf("CheckTarget(%s) = %v, WriteFile said %v", c.path, cerr, err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe changed: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		t.Errorf("the directory changed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("the missing directory was made")
	}
}

// An input is recognised under any name: itself, another spelling, a hard
// link, a symbolic link, and standard input when it reads the file.
func TestCheckTargetRefusesInputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	data := write(t, dir, "iris.csv", "a,b\n1,x\n", 0o644)
	other := write(t, dir, "other.csv", "a,b\n", 0o644)
	if err := os.Link(data, filepath.Join(dir, "hard.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("iris.csv", filepath.Join(dir, "soft.csv")); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{data, "iris.csv", "./iris.csv", "../" + filepath.Base(dir) + "/iris.csv", "hard.csv", "soft.csv"} {
		err := CheckTarget(target, "iris.csv")
		if err == nil || !strings.Contains(err.Error(), "the data this run reads") {
			t.Errorf("CheckTarget(%s, iris.csv) = %v", target, err)
		}
	}
	// The data named by a link are the link's target.
	if err := CheckTarget(data, "soft.csv"); err == nil {
		t.Error("CheckTarget(iris.csv, soft.csv) allowed the data's own file")
	}
	for _, ok := range []string{other, "new.json"} {
		if err := CheckTarget(ok, "iris.csv", "iris", "moons:n=50"); err != nil {
			t.Errorf("CheckTarget(%s) = %v", ok, err)
		}
	}
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdin := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = stdin }()
	if err := CheckTarget("hard.csv", "-"); err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("CheckTarget(hard.csv, -) with the file on standard input = %v", err)
	}
	if err := CheckTarget(other, "-"); err != nil {
		t.Errorf("CheckTarget(other.csv, -) = %v", err)
	}
}

// A record's inputs are its data file, or standard input; a built-in and a
// generator read none.
func TestRecordInputs(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "d.csv", "a,b\n1,x\n2,y\n3,x\n", 0o644)
	for _, c := range []struct {
		source string
		want   string
	}{{path, path}, {"iris", ""}, {"moons:n=50", ""}} {
		data := Data{Source: c.source}
		d, err := data.Open()
		if err != nil {
			t.Fatal(err)
		}
		r := &Record{Data: data, Dataset: d}
		if got := strings.Join(r.Inputs(), ","); got != c.want {
			t.Errorf("%s: inputs %q, want %q", c.source, got, c.want)
		}
	}
	if got := (&Record{Data: Data{Source: " - "}}).Inputs(); len(got) != 1 || got[0] != "-" {
		t.Errorf("standard input: %q", got)
	}
	// A served lab shows the file by another name (Dataset.Source): it is
	// still the run's input, not a built-in.
	data := Data{Source: path}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	d.Source = "d.csv"
	if got := (&Record{Data: data, Dataset: d}).Inputs(); len(got) != 1 || got[0] != path {
		t.Errorf("a file shown as d.csv: inputs %q, want %q", got, path)
	}
}
