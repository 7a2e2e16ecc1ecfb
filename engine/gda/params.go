package gda

import "github.com/tealab/tealab/engine"

// The hyperparameters the three models share, as registry entries.

func priorsParam() engine.Param {
	return engine.Param{Name: "priors", Kind: engine.Choice, Default: PriorsEmpirical,
		Choices: []string{PriorsEmpirical, PriorsUniform},
		Help:    "class priors: the training fractions n_k/n, or 1/k each"}
}

func estimatorParam(mle, unbiased string) engine.Param {
	return engine.Param{Name: "estimator", Kind: engine.Choice, Default: EstimatorMLE,
		Choices: []string{EstimatorMLE, EstimatorUnbiased},
		Help:    "covariance divisor: mle divides the scatter by " + mle + ", unbiased by " + unbiased}
}

func decisionParam() engine.Param {
	return engine.Param{Name: "decision", Kind: engine.Choice, Default: DecisionMAP,
		Choices: []string{DecisionMAP, DecisionRisk},
		Help:    "map: the most probable class; risk: the class of least expected loss under the loss matrix"}
}

func lossParam() engine.Param {
	return engine.Param{Name: "loss", Kind: engine.Text, Default: "", Check: CheckLoss,
		When: &engine.Applies{Param: "decision", In: []string{DecisionRisk}},
		Help: "loss matrix for decision=risk, rows = true class, columns = predicted, e.g. 0,1;5,0 (empty: 0-1 loss)"}
}
