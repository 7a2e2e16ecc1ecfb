// Package modelfile saves a fitted model to a file and applies it to new
// rows: `tealab train --save-model`, the lab's save key and `tealab
// predict`.
//
// A model file is one JSON object (format version 2; version 1, without
// "baseline", still loads):
//
//	format         "tealab-model": what the file is
//	version        2: the layout of this object; a newer one is refused
//	tealab         the version of tealab that wrote it
//	model          the spec name ("lda", "kmeans"...)
//	params         every parameter as --param takes it, "name": "text";
//	               loading parses them through the spec, as the CLI does
//	task           classification, regression, clustering or reduction
//	target         the target column's name (supervised models)
//	features       the raw input columns, in the order the preprocessing
//	               takes them: name, kind (numeric or nominal), for a
//	               nominal column its levels as in training, and "unused"
//	               for a column the preprocessing dropped (constant in
//	               training): the data to predict may leave it out
//	classes        class names, index = class code (classification)
//	positive       the positive class of two, as the run had it (scored
//	               predictions follow it: precision, recall, AUC)
//	threshold      optional: the threshold the run chose on the positive
//	               class's score under its cost matrix; Predict then
//	               calls a row positive iff its score is at least it
//	costs          optional: the run's cost matrix (metrics.Costs); Score
//	               adds cost and cost_default, and with more classes
//	               and probabilities Predict decides the class of least
//	               expected cost
//	preprocessing  the fitted preprocessing (datasets.Prep's state: imputed
//	               values, one-hot levels, kept columns, polynomial degree,
//	               standardisation, projection)
//	state          the model's fitted state (engine.Persistent)
//	metrics        the run's held-out metrics, as the report gave them
//	baseline       what scored predictions are measured against, from the
//	               rows the model was fitted on: "prior", each class's
//	               share, or "mean", the mean target (supervised models;
//	               absent when those rows cannot be told)
//	trained_on     the data: source, dataset name, rows, the evaluation,
//	               which rows the saved model was fitted on, and the
//	               SHA-256 of the source file when it was one
//	created        when the file was written (UTC)
//	checksum       SHA-256 of the object without this field, compact: a
//	               file changed after tealab wrote it is refused
//
// Applied to a table (Model.Predict), a nominal level the model never saw
// and a missing value are taken as the model takes them in training and
// said in the row's warnings; Model.Score scores the predictions against
// the table's target column as `tealab train` scores held-out rows.
//
// Loading never runs anything the file names: the model is built with its
// spec's New from parsed parameters and given its state as data, and every
// field is checked (a truncated, edited or future file is an error that
// says what is wrong, never a panic).
package modelfile
