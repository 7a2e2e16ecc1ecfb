package models_test

// `go generate ./engine/models` writes testdata/sklearn_cv.json, scikit-learn
// 1.2.1's cross-validated scores the conformance suite compares with
// (/usr/bin/python3). Weka's (testdata/weka/weka_ref.tsv) need Weka itself:
// testdata/weka/README.md says how they were taken.
//go:generate sh -c "cd testdata && /usr/bin/python3 sklearn_cv.py > sklearn_cv.json.new && mv sklearn_cv.json.new sklearn_cv.json"
