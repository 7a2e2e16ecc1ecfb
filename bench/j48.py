#!/usr/bin/python3
"""The decision tree against Weka's J48 (C4.5) under 10-fold cross-validation on ARFF files.

usage: j48.py TEALAB WEKA_JAR ARFF_DIR [--seeds 1,2,3] [--sets breast-cancer,...] [--param k=v]...

For each data set (ARFF_DIR/NAME.arff, or NAME.arff.gz, unpacked to a temporary folder) and
each seed it runs
  java -cp WEKA_JAR weka.classifiers.trees.J48 -t FILE -x 10 -s SEED -o
(J48's defaults, -C 0.25 -M 2 with subtree raising; its accuracy is "Correctly Classified
Instances" under "Stratified cross-validation") and
  TEALAB train --data FILE --model tree --cv 10 --seed SEED --json --quiet [--param k=v]...
with the tree's default parameters and again with prune=none (scikit-learn's tree). The class
is the last attribute on both sides. It prints one Markdown row a data set, each accuracy the
mean over the seeds (the folds differ between the programs, so one seed is noisy), and the
mean over the data sets.
"""
import argparse, gzip, json, os, re, shutil, subprocess, sys, tempfile

SETS = ["breast-cancer", "credit-g", "diabetes", "glass", "ionosphere", "labor", "soybean",
        "vote", "iris", "segment-challenge"]


def arff(folder, name, tmp):
    plain = os.path.join(folder, name + ".arff")
    if os.path.exists(plain):
        return plain
    packed = plain + ".gz"
    if not os.path.exists(packed):
        sys.exit(f"j48.py: neither {plain} nor {packed} exists; pass the folder of Weka's example ARFF files")
    out = os.path.join(tmp, name + ".arff")
    with gzip.open(packed, "rb") as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return out


def j48(jar, path, seed):
    out = subprocess.run(["java", "-cp", jar, "weka.classifiers.trees.J48", "-t", path, "-x", "10",
                          "-s", str(seed), "-o"], capture_output=True, text=True, check=True).stdout
    cv = out[out.index("Stratified cross-validation"):]
    return float(re.search(r"Correctly Classified Instances\s+\d+\s+([\d.]+)\s*%", cv).group(1))


def tealab(binary, path, seed, params):
    cmd = [binary, "train", "--data", path, "--model", "tree", "--cv", "10", "--seed", str(seed),
           "--json", "--quiet"]
    for p in params:
        cmd += ["--param", p]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return 100 * json.loads(out)["metrics"]["accuracy"]


def main():
    ap = argparse.ArgumentParser(description="tealab's tree against Weka's J48")
    ap.add_argument("tealab")
    ap.add_argument("jar")
    ap.add_argument("folder")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--param", action="append", default=[], help="extra tealab parameter k=v for the default column")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    mean = lambda xs: sum(xs) / len(xs)
    rows = []
    print(f"10-fold CV accuracy (%), mean over seeds {a.seeds}")
    print()
    print("| data set | J48 | tealab tree (default) | tealab prune=none |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.sets.split(","):
            path = arff(a.folder, name, tmp)
            row = [mean([j48(a.jar, path, s) for s in seeds]),
                   mean([tealab(a.tealab, path, s, a.param) for s in seeds]),
                   mean([tealab(a.tealab, path, s, a.param + ["prune=none"]) for s in seeds])]
            rows.append(row)
            print(f"| {name} | {row[0]:.2f} | {row[1]:.2f} | {row[2]:.2f} |", flush=True)
    cols = list(zip(*rows))
    print(f"| **mean** | **{mean(cols[0]):.2f}** | **{mean(cols[1]):.2f}** | **{mean(cols[2]):.2f}** |")


if __name__ == "__main__":
    main()
