package metrics

// `go generate ./engine/metrics` runs testdata/refs.py (scikit-learn 1.2.1
// for /usr/bin/python3): it writes testdata/sil40.csv, which the silhouette
// test reads, and prints the numbers metrics_test.go quotes.
//go:generate /usr/bin/python3 testdata/refs.py
//
// Then tealab itself writes the held-out rows and probabilities of
// logistic regression on breast_cancer (its --predictions file), and
// testdata/curves.py scores them with scikit-learn into
// testdata/curves_sklearn.json, which curves_test.go reads.
//go:generate go run ../.. train --data breast_cancer --model logistic --positive malignant --quiet --no-history --json --predictions testdata/breast_cancer_logistic.csv
//go:generate /usr/bin/python3 testdata/curves.py
