#!/usr/bin/python3
"""Reference scores from scikit-learn 1.2.1 for engine/tree's and engine/neighbors' tests.

usage: /usr/bin/python3 sklearn_ref.py > sklearn_ref.json   (from this directory)

10-fold stratified CV accuracy (shuffle, random_state=0), mean and standard deviation, of a
tree, a random forest, AdaBoost (SAMME, 50 stumps) and 5-NN (on standardised features, as
tealab fits it) on iris, wine and breast_cancer,
to compare within noise. (Trees node for node: notie_ref.py.)
"""
import json, os
import numpy as np
from sklearn import tree, ensemble, neighbors, model_selection, pipeline, preprocessing

here = os.path.dirname(os.path.abspath(__file__))
def load(name):
    d = np.genfromtxt(os.path.join(here, "../../../datasets/builtin", name + ".csv"), delimiter=",", skip_header=1, dtype=str)
    X = d[:, :-1].astype(float)
    y = np.unique(d[:, -1], return_inverse=True)[1]
    return X, y

ref = {"cv": {}}
cv = model_selection.StratifiedKFold(10, shuffle=True, random_state=0)
models = {
    "tree": lambda: tree.DecisionTreeClassifier(random_state=0),
    "forest": lambda: ensemble.RandomForestClassifier(n_estimators=100, random_state=0),
    "adaboost": lambda: ensemble.AdaBoostClassifier(n_estimators=50, algorithm="SAMME", random_state=0),
    # tealab standardises features for k-NN (a distance mixes their units)
    "knn": lambda: pipeline.make_pipeline(preprocessing.StandardScaler(), neighbors.KNeighborsClassifier(n_neighbors=5)),
}
for name in ["iris", "wine", "breast_cancer"]:
    X, y = load(name)
    for model, make in models.items():
        s = model_selection.cross_val_score(make(), X, y, cv=cv)
        ref["cv"][model + "/" + name] = [float(s.mean()), float(s.std())]
print(json.dumps(ref, indent=1))
