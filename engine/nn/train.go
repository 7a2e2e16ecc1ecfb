package nn

import (
	"math"
	"math/rand/v2"

	"github.com/tealab/tealab/engine"
)

// trainingParams are the parameters every network is trained by, defined
// once for all of them; lr, epochs and patience take the defaults that
// suit each network.
func trainingParams(lr float64, epochs, patience int) []engine.Param {
	return []engine.Param{
		{Name: "optimizer", Kind: engine.Choice, Default: Adam, Choices: Optimizers,
			Help:   "the step rule: sgd, momentum, rmsprop or adam",
			Detail: "sgd takes plain steps; momentum is the heavy ball (0.9); rmsprop scales the steps by the gradients' running RMS; adam does both, bias-corrected."},
		{Name: "lr", Kind: engine.Float, Default: lr, Min: 1e-7, Max: 10, Log: true,
			Help: "learning rate (sgd and momentum usually want 0.01-0.1)"},
		{Name: "lr_decay", Kind: engine.Float, Default: 0.0, Min: 0, Max: 100,
			Help: "epoch e uses lr/(1 + lr_decay·(e-1))"},
		{Name: "batch", Kind: engine.Int, Default: 32, Min: 1, Max: 1 << 30,
			Help: "rows a mini-batch: 1 is stochastic gradient descent, the number of rows or more is full batch"},
		{Name: "epochs", Kind: engine.Int, Default: epochs, Min: 1, Max: 100000,
			Help: "passes over the training rows"},
		{Name: "l2", Kind: engine.Float, Default: 0.0001, Min: 0, Max: 100, Simpler: engine.SimplerHigher,
			Help: "L2 weight decay: adds l2/(2·batch)·‖W‖² to each mini-batch's loss, biases left out (scikit-learn's alpha)"},
		{Name: "patience", Kind: engine.Int, Default: patience, Min: 0, Max: 100000,
			Help:   "epochs without improvement on held-back rows before stopping (0: train every epoch)",
			Detail: "A share of the training rows (validation_fraction) is held back and its loss measured after every epoch; the fit stops when it has not improved for this many epochs, and keeps the best weights."},
		{Name: "validation_fraction", Kind: engine.Float, Default: 0.1, Min: 0.01, Max: 0.5, When: &engine.Applies{Param: "patience"},
			Help: "the share of the training rows held back to decide when to stop (at least one row, and one left to train on)"},
	}
}

// holdBack shuffles n rows and, with patience, holds back a share of them
// for early stopping: at least one row, and at least one left to train on.
// model names the network in the error of a fit with too few rows.
func holdBack(model string, n, patience int, share float64, rng *rand.Rand) (train, val []int, err error) {
	order := rng.Perm(n)
	if patience == 0 {
		return order, nil, nil
	}
	if n < 2 {
		return nil, nil, engine.Limitf("%s: early stopping (patience=%d) needs at least 2 training rows to hold some back; set patience=0", model, patience)
	}
	k := min(max(int(math.Round(share*float64(n))), 1), n-1)
	return order[k:], order[:k], nil
}
