#!/usr/bin/python3
"""Cross-checks the loader fixtures with independent readers: Python's csv
module and scipy.io.arff.loadarff (where scipy can read the file: it has no
sparse rows, string attributes or trailing comments). Prints the row counts,
levels, missing counts and class counts that csv_test.go and arff_test.go
assert. Run from datasets/testdata: /usr/bin/python3 verify_fixtures.py
"""
import csv, collections, io
from scipy.io import arff

MISSING = {"", "?", "NA", "N/A", "n/a", "NaN", "nan", "NULL", "null"}

def csv_summary(path):
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = [r for r in csv.reader(f, skipinitialspace=True) if any(x.strip() for x in r)]
    header, data = rows[0], rows[1:]
    print(path, "rows", len(data), "header", [h.strip() for h in header])
    for j, h in enumerate(header):
        col = [r[j].strip() for r in data]
        miss = sum(v in MISSING for v in col)
        levels = list(dict.fromkeys(v for v in col if v not in MISSING))
        print("  ", repr(h.strip()), "missing", miss, "values", levels)

def arff_summary(path, text=None):
    f = io.StringIO(text) if text is not None else open(path)
    data, meta = arff.loadarff(f)
    print(path, "rows", len(data), "relation", meta.name)
    for name in meta.names():
        typ, levels = meta[name]
        col = data[name]
        if typ == "nominal":
            vals = [v.decode() for v in col]
            print("  ", repr(name), levels, "missing", vals.count("?"), dict(collections.Counter(vals)))
        else:
            import numpy as np
            print("  ", repr(name), typ, "missing", int(np.isnan(col).sum()), "sum", float(np.nansum(col)))

csv_summary("quirks.csv")
for f in ["weather.nominal.arff", "weather.numeric.arff", "contact-lenses.arff", "cpu.arff"]:
    arff_summary(f)
# scipy rejects trailing comments: strip them (outside quotes there are none here) for labor.arff.
text = "".join(l.split("%")[0].rstrip() + "\n" if not l.startswith("%") else "\n" for l in open("labor.arff"))
arff_summary("labor.arff", text)
