package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// onlyReader hides every method but Read: a pipe, as far as a loader can
// tell (no Seek, no Stat, no Len).
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// Streams that cannot seek load as files do: delimited text, gzip by its
// magic number, ARFF by its first lines or by the format given.
func TestReadFromStream(t *testing.T) {
	csv := "a,b,label\n1,2,x\n2,1,y\n3,3,x\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(csv))
	zw.Close()
	arff := "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n"
	for _, tc := range []struct {
		name, format, in string
		rows, cols       int
	}{
		{"csv", "", csv, 3, 3},
		{"gzip csv", "", gz.String(), 3, 3},
		{"arff sniffed", "", arff, 2, 2},
		{"arff forced", "arff", arff, 2, 2},
		{"tsv forced", "tsv", "a\tb\n1\t2\n3\t4\n", 2, 2},
	} {
		tab, err := ReadFrom(onlyReader{strings.NewReader(tc.in)}, "stdin", tc.format)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if r, c := tab.Data.Dims(); r != tc.rows || c != tc.cols {
			t.Errorf("%s: %dx%d, want %dx%d", tc.name, r, c, tc.rows, tc.cols)
		}
	}
	if _, err := ReadFrom(strings.NewReader(csv), "stdin", "xls"); err == nil || !strings.Contains(err.Error(), "csv, tsv, arff") {
		t.Errorf("format xls: %v", err)
	}
}

// A named pipe (and so <(cat f.csv)) is read without seeking.
func TestLoadFileNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo.csv")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("a,b,label\n1,2,x\n2,1,y\n")
		f.Close()
	}()
	tab, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows() != 2 || tab.Name != "fifo" {
		t.Errorf("%d rows named %q", tab.Rows(), tab.Name)
	}
}

// An empty file whose name ends in .gz is empty, not "not gzip".
func TestEmptyGzipIsEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv.gz")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	if err == nil || !strings.Contains(err.Error(), "is empty") || strings.Contains(err.Error(), "gzip") {
		t.Errorf("got %v, want x.csv.gz: is empty", err)
	}
}

// Values near the largest float64 neither overflow a summary nor
// standardisation.
func TestHugeValuesDoNotOverflow(t *testing.T) {
	mean, std := MeanStd([]float64{-1e308, 1e308, math.NaN()})
	if mean != 0 || std != 1e308 {
		t.Errorf("mean %v, std %v; want 0, 1e308", mean, std)
	}
	if m, s := MeanStd([]float64{1, 2, 3, 4}); m != 2.5 || math.Abs(s-math.Sqrt(1.25)) > 1e-15 {
		t.Errorf("ordinary values: mean %v, std %v", m, s)
	}
	X := mat.NewDense(4, 2, []float64{-1e308, 1, 1e308, 2, -1e308, 3, 1e308, 4})
	var st Standardizer
	if err := st.Fit(X); err != nil {
		t.Fatal(err)
	}
	Z, err := st.Apply(X)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-1, -1.3416407864998738, 1, -0.4472135954999579, -1, 0.4472135954999579, 1, 1.3416407864998738}
	for i, v := range Z.RawMatrix().Data {
		if math.Abs(v-want[i]) > 1e-12 {
			t.Fatalf("standardised %v, want %v", Z.RawMatrix().Data, want)
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         "plain",
		"été ✓":         "été ✓",
		"x\ny":          `x\ny`,
		"a\tb\r":        `a\tb\r`,
		"\x1b[31mred":   `\x1b[31mred`,
		"nel\u0085here": `nel\u0085here`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
