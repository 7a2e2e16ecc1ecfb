package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// trainFlags are the flags of `tealab train` (and the lab's start-up flags).
type trainFlags struct {
	data   dataFlags
	model  string
	params paramFlag
	split  float64
	folds  int
	loo    bool
	seed   uint64
}

func (t *trainFlags) register(fs *flag.FlagSet) {
	t.data.register(fs)
	t.params = paramFlag{}
	fs.StringVar(&t.model, "model", "", "model name ('tealab models' lists them)")
	fs.Var(t.params, "param", "hyperparameter name=value (repeatable)")
	fs.Float64Var(&t.split, "split", 0.2, "hold-out: fraction of rows held out for testing")
	fs.IntVar(&t.folds, "cv", 0, "k-fold cross-validation with K folds")
	fs.BoolVar(&t.loo, "loo", false, "leave-one-out cross-validation")
	fs.Uint64Var(&t.seed, "seed", 1, "seed for the split and the model")
}

// options checks the evaluation flags and turns them into eval.Options.
func (t *trainFlags) options(fs *flag.FlagSet) (eval.Options, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	n := 0
	for _, name := range []string{"split", "cv", "loo"} {
		if set[name] {
			n++
		}
	}
	if n > 1 {
		return eval.Options{}, usagef("train: choose one of --split, --cv and --loo")
	}
	if t.split <= 0 || t.split >= 1 {
		return eval.Options{}, usagef("train: --split %g is out of range (a fraction between 0 and 1, e.g. 0.2)", t.split)
	}
	if set["cv"] && t.folds < 2 {
		return eval.Options{}, usagef("train: --cv %d is out of range (at least 2 folds)", t.folds)
	}
	return eval.Options{Split: t.split, Folds: t.folds, LOO: t.loo, Seed: t.seed}, nil
}

// resolve finds the model and parses its parameters; mistakes are usage errors
// that list what is valid.
func (t *trainFlags) resolve(cmd string, task datasets.Task) (*engine.Spec, engine.Values, error) {
	if t.model == "" {
		return nil, nil, usagef("%s: --model is required (valid: %s)", cmd, strings.Join(engine.Names(), ", "))
	}
	spec, err := engine.Lookup(t.model)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	v, err := spec.Parse(t.params)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	if !spec.Supports(task) {
		return nil, nil, usagef("model %s does not do %s (it does %s); models for %s: %s",
			spec.Name, task, strings.Join(taskNames(spec.Tasks), ", "), task, strings.Join(modelsFor(task), ", "))
	}
	return spec, v, nil
}

func modelsFor(task datasets.Task) []string {
	var names []string
	for _, s := range engine.Specs() {
		if s.Supports(task) {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return []string{"none yet"}
	}
	return names
}

// record is what --save writes and --json prints: the result, the fitted
// coefficients where the model has them, and the recipe that reproduces it.
type record struct {
	*eval.Result
	extras
}

type extras struct {
	Coefficients *coefficients `json:"coefficients,omitempty"`
	Recipe       recipe        `json:"recipe"`
}

// coefficients are a linear model's weights (first fold), on the features as
// the model saw them after preprocessing.
type coefficients struct {
	Features  []string              `json:"features"`
	Outputs   []string              `json:"outputs"`
	Weights   [][]metrics.JSONFloat `json:"weights"` // one row per output
	Intercept []metrics.JSONFloat   `json:"intercept,omitempty"`
}

func newCoefficients(c *engine.Coefficients) *coefficients {
	if c == nil || c.Weights == nil {
		return nil
	}
	rows, cols := c.Weights.Dims()
	out := &coefficients{Features: c.Features, Outputs: c.Outputs}
	for i := 0; i < rows; i++ {
		row := make([]metrics.JSONFloat, cols)
		for j := range row {
			row[j] = metrics.JSONFloat(c.Weights.At(i, j))
		}
		out.Weights = append(out.Weights, row)
	}
	for _, b := range c.Intercept {
		out.Intercept = append(out.Intercept, metrics.JSONFloat(b))
	}
	return out
}

// MarshalJSON writes the result's fields followed by the extras. It is needed
// because the embedded Result's own MarshalJSON would otherwise be promoted
// and drop them.
func (r record) MarshalJSON() ([]byte, error) {
	res, err := json.Marshal(r.Result)
	if err != nil {
		return nil, err
	}
	ext, err := json.Marshal(r.extras)
	if err != nil {
		return nil, err
	}
	if len(res) < 2 || res[len(res)-1] != '}' || len(ext) < 2 || ext[0] != '{' {
		return nil, fmt.Errorf("result is not a JSON object")
	}
	out := append(res[:len(res)-1:len(res)-1], ',')
	return append(out, ext[1:]...), nil
}

type recipe struct {
	Data    string            `json:"data"`
	Source  string            `json:"source"`
	Target  string            `json:"target,omitempty"`
	Model   string            `json:"model"`
	Params  map[string]string `json:"params"`
	Command string            `json:"command"`
}

func runTrain(args []string, out io.Writer) error {
	fs := newFlags("train")
	var tf trainFlags
	tf.register(fs)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	save := fs.String("save", "", "write the result and its recipe as JSON to FILE")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	opt, err := tf.options(fs)
	if err != nil {
		return err
	}
	if tf.data.source == "" {
		return usagef("train: --data is required (a built-in such as iris, a generator such as moons, or a file)")
	}
	if tf.model == "" {
		return usagef("train: --model is required (valid: %s)", strings.Join(engine.Names(), ", "))
	}
	if _, err := engine.Lookup(tf.model); err != nil {
		return usageError{err.Error()}
	}
	d, err := tf.data.load("train")
	if err != nil {
		return err
	}
	spec, v, err := tf.resolve("train", d.Task)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := eval.Run(ctx, d, spec, v, opt, nil)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("train: interrupted")
		}
		if strings.Contains(err.Error(), spec.Name) {
			return fmt.Errorf("%s: %w", d.Name, err)
		}
		return fmt.Errorf("%s on %s: %w", spec.Name, d.Name, err)
	}
	rec := record{Result: res, extras: extras{Coefficients: newCoefficients(res.Coefs),
		Recipe: recipe{Data: tf.data.source, Source: d.Source, Target: tf.data.target,
			Model: spec.Name, Params: map[string]string{}, Command: shellCommand("tealab train", args)}}}
	for k, x := range v {
		rec.Recipe.Params[k] = engine.Format(x)
	}
	if *save != "" {
		if err := saveRecord(*save, rec); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(out, rec)
	}
	return writeReport(out, d, spec, res)
}

func saveRecord(path string, rec record) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--save: %w", err)
	}
	if err := writeJSON(f, rec); err != nil {
		f.Close()
		return fmt.Errorf("--save %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	return nil
}

// shellCommand joins a command line so that it can be pasted into a POSIX
// shell: arguments with spaces or shell metacharacters are single-quoted.
func shellCommand(prefix string, args []string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, a := range args {
		b.WriteByte(' ')
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}
