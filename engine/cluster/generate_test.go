package cluster

// The reference data the tests read (engine/decomp's too) are written by
// `go generate ./engine/cluster` (scipy 1.10 and scikit-learn 1.2.1 for
// /usr/bin/python3), never by a test: points.csv and scipy_ref.json.
//go:generate /usr/bin/python3 testdata/scipy_ref.py
