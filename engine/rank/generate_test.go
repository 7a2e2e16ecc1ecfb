package rank

// The references in testdata, remade by go generate (testdata/README.md):
// Weka 3.6's merits and rankings (needs Weka and a JDK), then
// scikit-learn 1.2's mutual information and permutation importance.
//go:generate sh -c "cd ../.. && sh engine/rank/testdata/gen.sh"
//go:generate sh -c "cd ../.. && sh engine/rank/testdata/gen_sklearn.sh"
