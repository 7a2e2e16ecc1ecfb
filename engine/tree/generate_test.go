package tree

// The reference data the tests read (engine/neighbors' too, from
// sklearn_ref.json) are written by `go generate ./engine/tree`
// (scikit-learn 1.2.1 for /usr/bin/python3), never by a test. notie_ref.py
// writes its data sets and notie_ref.json itself.
//go:generate sh -c "cd testdata && /usr/bin/python3 notie_ref.py"
//go:generate sh -c "cd testdata && /usr/bin/python3 sklearn_ref.py > sklearn_ref.json.new && mv sklearn_ref.json.new sklearn_ref.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 adaboost_staged_ref.py > adaboost_staged_ref.json.new && mv adaboost_staged_ref.json.new adaboost_staged_ref.json"
