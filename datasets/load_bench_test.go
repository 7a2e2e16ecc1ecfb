package datasets

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// writeNumericCSV writes rows x cols normal numbers in %.6g form (as
// bench/make_data.py writes them) with a header and returns the file size.
func writeNumericCSV(tb testing.TB, path string, rows, cols int, seed uint64) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := range cols {
		if j > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, "x%d", j)
	}
	w.WriteByte('\n')
	r := rand.New(rand.NewPCG(seed, 0x7ea1ab))
	var buf []byte
	for range rows {
		buf = buf[:0]
		for j := range cols {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, r.NormFloat64()*10, 'g', 6, 64)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}

// peakHeap samples the live heap every millisecond until stop is called and
// returns the largest value seen.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		defer close(finished)
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(done); <-finished; return peak.Load() }
}

// BenchmarkLoadCSV100MB loads ~100 MB of numbers (1,200,000 rows x 10
// columns). Metrics: MB/s of text, peak-x = peak heap during the load over
// the matrix's n*p*8 bytes (the target is <= ~2).
func BenchmarkLoadCSV100MB(b *testing.B) {
	const rows, cols = 1_200_000, 10
	path := filepath.Join(b.TempDir(), "big.csv")
	size := writeNumericCSV(b, path, rows, cols, 1)
	numeric := float64(rows * cols * 8)
	for _, c := range []struct {
		name string
		load func() (*Table, error)
	}{
		{"LoadFile", func() (*Table, error) { return LoadFile(path) }},
		{"ReadDelimited", func() (*Table, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return ReadDelimited(f, "big.csv", 0)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			var worst float64
			for b.Loop() {
				runtime.GC()
				stop := peakHeap()
				tb, err := c.load()
				peak := stop()
				if err != nil {
					b.Fatal(err)
				}
				if tb.Rows() != rows {
					b.Fatalf("%d rows", tb.Rows())
				}
				worst = max(worst, float64(peak)/numeric)
				runtime.KeepAlive(tb)
			}
			b.ReportMetric(worst, "peak-x")
		})
	}
}

// BenchmarkLoadCSV loads an iris-sized table (150 rows, 4 numbers and a
// class name).
func BenchmarkLoadCSV(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("sepal_length,sepal_width,petal_length,petal_width,species\n")
	r := rand.New(rand.NewPCG(2, 0x7ea1ab))
	species := []string{"setosa", "versicolor", "virginica"}
	for i := range 150 {
		fmt.Fprintf(&sb, "%.1f,%.1f,%.1f,%.1f,%s\n", 4+4*r.Float64(), 2+2*r.Float64(), 1+6*r.Float64(), 2.5*r.Float64(), species[i/50])
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDelimited(strings.NewReader(text), "iris.csv", 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadARFF loads 100,000 rows of 8 numbers and a nominal class.
func BenchmarkLoadARFF(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("@relation bench\n")
	for j := range 8 {
		fmt.Fprintf(&sb, "@attribute x%d numeric\n", j)
	}
	sb.WriteString("@attribute class {a, b, c}\n@data\n")
	r := rand.New(rand.NewPCG(3, 0x7ea1ab))
	for range 100_000 {
		for range 8 {
			sb.WriteString(strconv.FormatFloat(r.NormFloat64(), 'g', 6, 64))
			sb.WriteByte(',')
		}
		sb.WriteString([]string{"a", "b", "c"}[r.IntN(3)])
		sb.WriteByte('\n')
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFrom(strings.NewReader(text), "bench.arff", "arff"); err != nil {
			b.Fatal(err)
		}
	}
}
