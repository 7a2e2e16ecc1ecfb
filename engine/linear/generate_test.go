package linear

// The reference data the tests read are written by `go generate
// ./engine/linear` (scikit-learn 1.2.1 for /usr/bin/python3), never by a
// test; logistic_ref.py takes a few minutes. leastsquares_ref.py and
// lift_ref.py print the numbers their tests quote instead: run them by hand
// (their docstrings say how).
//go:generate sh -c "cd testdata && /usr/bin/python3 centroid_ref.py > centroid_ref.json.new && mv centroid_ref.json.new centroid_ref.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 perceptron_ref.py > perceptron_ref.json.new && mv perceptron_ref.json.new perceptron_ref.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 logistic_ref.py > logistic_ref.json.new && mv logistic_ref.json.new logistic_ref.json"
