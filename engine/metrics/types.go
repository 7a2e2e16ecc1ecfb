// Package metrics scores predictions: classification (accuracy, confusion
// matrix, precision/recall/F1, kappa, MCC, log-loss, ROC/AUC), regression
// (MSE, RMSE, MAE, R2) and clustering (adjusted Rand index, silhouette).
// Formulas are those of the sources the models cite (Shewchuk, Concise
// Machine Learning, first), and scikit-learn's where those are silent.
package metrics

// Confusion counts predictions: Matrix[i][j] is the number of rows of true
// class i predicted as class j.
type Confusion struct {
	Labels []string `json:"labels"`
	Matrix [][]int  `json:"matrix"`
}

// ClassReport is one row of a classification report.
type ClassReport struct {
	Class     string  `json:"class"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
}

// ROC is a receiver operating characteristic curve for one class against the
// rest, with its area. Points run from (0,0) to (1,1).
type ROC struct {
	Class      string    `json:"class"`
	FPR        []float64 `json:"fpr"`
	TPR        []float64 `json:"tpr"`
	Thresholds []float64 `json:"-"`
	AUC        float64   `json:"auc"`
}
