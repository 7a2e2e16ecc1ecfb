package gda

// The reference data the tests read are written by `go generate
// ./engine/gda` (scikit-learn 1.2.1 for /usr/bin/python3), never by a test:
// gzipped copies of the built-in sets, nominal.arff (standard library only,
// the same bytes everywhere), then the references computed from them.
//go:generate sh -c "for n in iris wine breast_cancer digits; do gzip -9n < ../../datasets/builtin/$DOLLAR{n}.csv > testdata/$DOLLAR{n}.csv.gz || exit 1; done"
//go:generate sh -c "cd testdata && /usr/bin/python3 nominal.py > nominal.arff.new && mv nominal.arff.new nominal.arff"
//go:generate sh -c "cd testdata && /usr/bin/python3 cnb_ref.py > cnb_ref.json.new && mv cnb_ref.json.new cnb_ref.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 reference.py > sklearn_ref.json.new && mv sklearn_ref.json.new sklearn_ref.json"
