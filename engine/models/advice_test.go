package models_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// flagPattern is a command-line flag such as --split or --drop.
var flagPattern = regexp.MustCompile(`--[a-z]`)

// The engine and the data sets say what is wrong and name the remedy by
// its kind; how to apply it (a flag, a key) is each front end's to say. No
// string they hold names a flag, but for runs.Record.Command, the command
// that reproduces a run.
func TestEngineStringsNameNoFlags(t *testing.T) {
	for _, root := range []string{"..", "../../datasets"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && d.Name() == "testdata":
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if fn, ok := n.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "Command" {
					return false
				}
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && flagPattern.MatchString(lit.Value) {
					t.Errorf("%s: %s names a command-line flag", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Every warning and error a few bad set-ups raise (hold-outs that leave
// too few rows, a long leave-one-out, an identifier, free text, Gaussian
// naive Bayes on nominal columns, too little memory) says the problem in
// words any front end can show.
func TestWarningsNameNoFlags(t *testing.T) {
	iris, blobs := builtin(t, "iris", ""), builtin(t, "blobs:n=600", "")
	ids, weather := file(t, "iris_id.csv"), file(t, "weather.nominal.arff")
	cases := []struct {
		data  *datasets.Dataset
		model string
		opt   eval.Options
	}{
		{iris, "lda", eval.Options{Split: 0.03, Seed: 1}},
		{iris, "lda", eval.Options{Split: 0.97, Seed: 1}},
		{blobs, "lda", eval.Options{LOO: true, Seed: 1}},
		{ids, "tree", eval.Options{Split: 0.2, Seed: 1}},
		{manyLevels(600), "tree", eval.Options{Split: 0.2, Seed: 1}},
		{weather, "gnb", eval.Options{Split: 0.2, Seed: 1}},
		{iris, "kmeans", eval.Options{Folds: 10, Seed: 1}},
	}
	said := 0
	for _, c := range cases {
		spec, v := specWith(t, c.model, nil)
		res, err := eval.Run(context.Background(), c.data, spec, v, c.opt, nil)
		if err != nil {
			t.Fatalf("%s on %s: %v", c.model, c.data.Name, err)
		}
		for _, w := range res.Warnings {
			said++
			if text := fmt.Sprint(w); flagPattern.MatchString(text) {
				t.Errorf("%s on %s: %q names a flag", c.model, c.data.Name, text)
			}
		}
	}
	if said < len(cases) {
		t.Errorf("%d warnings from %d bad set-ups", said, len(cases))
	}
	t.Setenv(engine.MemoryEnv, "2GB")
	spec, v := specWith(t, "lda", nil)
	if _, err := eval.Run(context.Background(), wideData(3, 200_000), spec, v, eval.Options{Split: 0.2, Seed: 1}, nil); err == nil || flagPattern.MatchString(err.Error()) {
		t.Errorf("lda on wide data: %v, want an error that names no flag", err)
	}
}

// file is a data set of datasets/testdata, its last column the target.
func file(t *testing.T, name string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open("../../datasets/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
