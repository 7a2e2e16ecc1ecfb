package models_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// The parabolic lift: a perceptron cannot separate XOR or two concentric
// circles, and with lift=2 (x², xy, y² added) it does, as `tealab train
// --data circles --model perceptron --param lift=2` runs it (standardised,
// an 80/20 hold-out, seed 1).
func TestPerceptronLiftSeparatesXORAndCircles(t *testing.T) {
	t.Parallel()
	for _, data := range []string{"xor", "circles"} {
		for _, lift := range []string{"1", "2"} {
			spec, v := specWith(t, "perceptron", map[string]string{"lift": lift})
			res, err := eval.Run(context.Background(), builtin(t, data, ""), spec, v, eval.Options{Split: 0.2, Seed: 1}, nil)
			if err != nil {
				t.Fatalf("%s, lift=%s: %v", data, lift, err)
			}
			acc := res.Metrics["accuracy"]
			if separated := acc >= 0.95; separated != (lift == "2") {
				t.Errorf("%s, lift=%s: held-out accuracy %.3f", data, lift, acc)
			}
		}
	}
}

// A lift too wide for any memory is refused by its width, one line naming
// lift; one the memory cannot hold, by the memory estimate, naming lift too.
func TestLiftRefusedByWidthOrMemory(t *testing.T) {
	spec, v := specWith(t, "logistic", map[string]string{"lift": "6"})
	_, err := eval.Run(context.Background(), builtin(t, "digits", ""), spec, v, eval.Options{Split: 0.2, Seed: 1}, nil)
	if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "lift=6 on") || !strings.Contains(err.Error(), "columns, more than the 100000 allowed") {
		t.Errorf("logistic, lift=6 on digits: %v", err)
	}
	t.Setenv(engine.MemoryEnv, "10MB")
	spec, v = specWith(t, "perceptron", map[string]string{"lift": "3"})
	_, err = eval.Run(context.Background(), builtin(t, "breast_cancer", ""), spec, v, eval.Options{Split: 0.2, Seed: 1}, nil)
	if !errors.Is(err, engine.ErrLimit) || !strings.Contains(err.Error(), "matrix of lifted features (lift=3)") {
		t.Errorf("perceptron, lift=3 on breast_cancer in 10MB: %v", err)
	}
}
