#!/usr/bin/python3
"""Writes nominal.arff: a seeded, all-nominal classification set shaped like
the UCI breast-cancer data Weka ships (286 rows, 9 nominal attributes with
rare levels and a few missing values, 70/30 classes), for the categorical
naive Bayes tests. Standard library only, so every machine writes the same
file:  /usr/bin/python3 nominal.py > nominal.arff
"""
import random

r = random.Random(20261123)
ATTRS = [
    ("age", ["10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70-79", "80-89", "90-99"]),
    ("menopause", ["lt40", "ge40", "premeno"]),
    ("tumor-size", ["0-4", "5-9", "10-14", "15-19", "20-24", "25-29", "30-34", "35-39", "40-44", "45-49", "50-54", "55-59"]),
    ("inv-nodes", ["0-2", "3-5", "6-8", "9-11", "12-14", "15-17", "18-20", "21-23", "24-26", "27-29", "30-32", "33-35", "36-39"]),
    ("node-caps", ["yes", "no"]),
    ("deg-malig", ["1", "2", "3"]),
    ("breast", ["left", "right"]),
    ("breast-quad", ["left_up", "left_low", "right_up", "right_low", "central"]),
    ("irradiat", ["yes", "no"]),
]
CLASSES = ["no-recurrence-events", "recurrence-events"]


def weights(levels, cls, j):
    """Class-conditional level weights: a peaked, skewed profile (so that
    most levels are rare) that the class tilts only a little, in a few
    attributes, as in the real data where recurrence is hard to predict."""
    n = len(levels)
    peak = (n * (j % 3 + 1)) // 4
    w = [1.0 / (1 + 2 * abs(i - peak)) ** 2 for i in range(n)]
    if cls == 1 and j in (3, 4, 5, 8):
        w = [v * (1 + 5 * (i > peak)) for i, v in enumerate(w)]
    return w


print("% A synthetic stand-in for Weka's breast-cancer.arff (see nominal.py).")
print("@relation breast-cancer-like\n")
for name, levels in ATTRS:
    print("@attribute %s {%s}" % (name, ",".join("'%s'" % l for l in levels)))
print("@attribute Class {%s}\n" % ",".join("'%s'" % c for c in CLASSES))
print("@data")
for i in range(286):
    cls = 0 if i < 201 else 1
    row = []
    for j, (name, levels) in enumerate(ATTRS):
        if name in ("node-caps", "breast-quad") and r.random() < 0.03:
            row.append("?")
            continue
        row.append("'%s'" % r.choices(levels, weights(levels, cls, j))[0])
    row.append("'%s'" % CLASSES[cls])
    print(",".join(row))
