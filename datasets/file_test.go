package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFileFormats(t *testing.T) {
	dir := t.TempDir()
	arff, err := os.ReadFile("testdata/weather.nominal.arff")
	if err != nil {
		t.Fatal(err)
	}
	csv := []byte("a,b,c\n1,2,x\n3,4,y\n")
	cases := []struct {
		file     string
		data     []byte
		name     string
		cols     []string
		rows     int
		firstCol Kind
	}{
		{"t.csv", csv, "t", []string{"a", "b", "c"}, 2, Numeric},
		{"t.csv.gz", gz(t, csv), "t", []string{"a", "b", "c"}, 2, Numeric},
		{"t.CSV.GZ", gz(t, csv), "t", []string{"a", "b", "c"}, 2, Numeric},
		{"gzip-without-gz.csv", gz(t, csv), "gzip-without-gz", []string{"a", "b", "c"}, 2, Numeric},
		{"t.tsv", []byte("a\tb\n1\t2\n"), "t", []string{"a", "b"}, 1, Numeric},
		{"t.txt", []byte("a;b\n1;2\n"), "t", []string{"a", "b"}, 1, Numeric},
		{"w.arff", arff, "w", []string{"outlook", "temperature", "humidity", "windy", "play"}, 14, Nominal},
		{"w.arff.gz", gz(t, arff), "w", []string{"outlook", "temperature", "humidity", "windy", "play"}, 14, Nominal},
		{"weather.nominal.arff", arff, "weather.nominal", []string{"outlook", "temperature", "humidity", "windy", "play"}, 14, Nominal},
		{"no-extension", arff, "no-extension", []string{"outlook", "temperature", "humidity", "windy", "play"}, 14, Nominal},
		{"table.data", csv, "table", []string{"a", "b", "c"}, 2, Numeric},
		{"table.dat.gz", gz(t, arff), "table", []string{"outlook", "temperature", "humidity", "windy", "play"}, 14, Nominal},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := writeFile(t, dir, c.file, c.data)
			tb, err := LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			checkDims(t, tb)
			if tb.Name != c.name || tb.Source != p {
				t.Errorf("Name %q Source %q, want %q %q", tb.Name, tb.Source, c.name, p)
			}
			if got := names(tb); !reflect.DeepEqual(got, c.cols) {
				t.Errorf("columns %q, want %q", got, c.cols)
			}
			if tb.Rows() != c.rows || tb.Columns[0].Kind != c.firstCol {
				t.Errorf("%d rows, first column %v", tb.Rows(), tb.Columns[0].Kind)
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	csv := []byte("a,b\n" + string(bytes.Repeat([]byte("1,2\n"), 50000)))
	arff, err := os.ReadFile("testdata/labor.arff")
	if err != nil {
		t.Fatal(err)
	}
	full := gz(t, csv)
	corrupt := append([]byte(nil), full...)
	corrupt[len(corrupt)-6] ^= 0xff // the CRC32 in the trailer
	cases := []struct {
		file  string
		data  []byte
		parts []string
	}{
		{"empty.csv", nil, []string{"empty.csv: empty file"}},
		{"empty.arff", nil, []string{"empty.arff: empty file"}},
		{"empty.csv.gz", gz(t, nil), []string{"empty.csv.gz: empty file"}},
		{"plain.csv.gz", csv, []string{"plain.csv.gz:", "bad gzip data", "not gzip-compressed"}},
		{"header.csv.gz", []byte{0x1f, 0x8b, 0x99, 0, 0}, []string{"header.csv.gz:", "bad gzip data"}},
		{"truncated.csv.gz", full[:len(full)/2], []string{"truncated.csv.gz:", "bad gzip data", "unexpected EOF"}},
		{"crc.csv.gz", corrupt, []string{"crc.csv.gz:", "bad gzip data", "checksum"}},
		{"truncated.arff.gz", gz(t, arff)[:200], []string{"truncated.arff.gz:", "bad gzip data", "unexpected EOF"}},
		{"garbage.arff.gz", []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff}, []string{"garbage.arff.gz:", "bad gzip data"}},
		{"ragged.csv", []byte("a,b\n1,2\n3\n"), []string{"ragged.csv:3:", "1 field, expected 2"}},
		{"bad.arff", []byte("@relation r\n@attribute x numbr\n@data\n"), []string{"bad.arff:2:", `unknown type "numbr"`}},
		{"binary.csv", []byte("\x7fELF\x02\x01\x01\x00\x00\x00"), []string{"binary.csv:1:", "not a text file"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := writeFile(t, dir, c.file, c.data)
			_, err := LoadFile(p)
			wantErr(t, err, append(c.parts, dir)...)
		})
	}
	_, err = LoadFile(filepath.Join(dir, "nope.csv"))
	wantErr(t, err, "nope.csv", "no such file")
	_, err = LoadFile(dir)
	wantErr(t, err, dir, "is a directory")
}

func TestLoadFileDatasetMessages(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "iris.csv", []byte("sepal,petal,species\n5.1,1.4,setosa\n4.9,1.3,setosa\n"))
	tb, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tb.Dataset("class", Auto)
	wantErr(t, err, "iris:", `no target column "class" (columns: sepal, petal, species)`)
	one, err := tb.Dataset("species", Auto)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, one.Trainable(), "iris:", `target "species" is "setosa" in every row`)
}

func TestSplitExt(t *testing.T) {
	cases := []struct {
		path, name, ext string
		gz              bool
	}{
		{"data/x.csv.gz", "x", ".csv", true},
		{"x.arff", "x", ".arff", false},
		{"weather.nominal.arff", "weather.nominal", ".arff", false},
		{"a.b.c", "a.b.c", ".c", false}, // unknown extensions stay
		{"noext", "noext", "", false},
		{".csv", ".csv", ".csv", false},
		{"x.gz", "x", "", true},
	}
	for _, c := range cases {
		name, ext, gz := splitExt(c.path)
		if name != c.name || ext != c.ext || gz != c.gz {
			t.Errorf("splitExt(%q) = %q %q %v, want %q %q %v", c.path, name, ext, gz, c.name, c.ext, c.gz)
		}
	}
}

func TestLoadFileFixtures(t *testing.T) {
	cases := []struct {
		file string
		cols []Column
		rows int
	}{
		{"semicolon.csv", []Column{
			{Name: "city", Kind: Nominal, Levels: []string{"Oslo", "Rome", "Lima"}},
			{Name: "temp"},
			{Name: "rain", Kind: Nominal, Levels: []string{"yes", "no"}},
		}, 3},
		{"pipes.txt", []Column{
			{Name: "a"}, {Name: "b"}, {Name: "c", Kind: Nominal, Levels: []string{"x", "y"}},
		}, 2},
		{"noheader.tsv", []Column{
			{Name: "col1"}, {Name: "col2"}, {Name: "col3"}, {Name: "col4"},
			{Name: "col5", Kind: Nominal, Levels: []string{"Iris-setosa", "Iris-versicolor", "Iris-virginica"}},
		}, 3},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tb := loadFixture(t, "testdata/"+c.file)
			if !reflect.DeepEqual(tb.Columns, c.cols) || tb.Rows() != c.rows {
				t.Errorf("%d rows, columns\n got %+v\nwant %+v", tb.Rows(), tb.Columns, c.cols)
			}
		})
	}
	tb := loadFixture(t, "testdata/semicolon.csv")
	if got := colValues(tb, 1); !sameFloats(got, []float64{-3.5, 14, 19.25}) {
		t.Errorf("temp %v", got)
	}
}

// A file's table is allocated once, at its size: counting the lines first
// replaced an estimate 10% too large whose trim copied the whole table, so
// that loading allocated (and held at its peak) twice the table.
func TestLoadFileAllocatesTheTableOnce(t *testing.T) {
	const rows, cols = 100_000, 10
	path := filepath.Join(t.TempDir(), "big.csv")
	writeNumericCSV(t, path, rows, cols, 3)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tb, err := LoadFile(path)
	runtime.ReadMemStats(&after)
	if err != nil || tb.Rows() != rows {
		t.Fatalf("%v rows, %v", tb.Rows(), err)
	}
	table := float64(rows * cols * 8)
	if got := float64(after.TotalAlloc-before.TotalAlloc) / table; got > 1.5 {
		t.Errorf("loading allocated %.2f times the table", got)
	}
}

// A table read from a file or a stream carries the SHA-256 of the bytes
// read (compressed, for a gzip file), taken while reading.
func TestReadFingerprintsTheBytes(t *testing.T) {
	raw := []byte("a,b,y\n1,2,x\n3,4,y\n5,6,x\n")
	dir := t.TempDir()
	for name, b := range map[string][]byte{"plain.csv": raw, "packed.csv.gz": gz(t, raw)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		want := hex.EncodeToString(sum[:])
		tb, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if tb.SHA256 != want {
			t.Errorf("%s: LoadFile SHA256 %q, want %q", name, tb.SHA256, want)
		}
		if tb, err = ReadFrom(bytes.NewReader(b), name, ""); err != nil || tb.SHA256 != want {
			t.Errorf("%s: ReadFrom SHA256 %q (%v), want %q", name, tb.SHA256, err, want)
		}
		d, err := tb.Dataset("", Auto)
		if err != nil || d.SHA256 != want {
			t.Errorf("%s: Dataset SHA256 %q (%v), want %q", name, d.SHA256, err, want)
		}
	}
}
