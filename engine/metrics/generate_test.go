package metrics

// `go generate ./engine/metrics` runs testdata/refs.py (scikit-learn 1.2.1
// for /usr/bin/python3): it writes testdata/sil40.csv, which the silhouette
// test reads, and prints the numbers metrics_test.go quotes.
//go:generate /usr/bin/python3 testdata/refs.py
