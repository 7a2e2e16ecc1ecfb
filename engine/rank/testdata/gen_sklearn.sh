#!/bin/sh
# gen_sklearn.sh remakes sklearn.json (sklearn_ref.py) from the built-ins
# exported by ./export. Run from the repository's root with scikit-learn
# 1.2: sh engine/rank/testdata/gen_sklearn.sh
set -eu
here=engine/rank/testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./$here/export "$tmp"
/usr/bin/python3 $here/sklearn_ref.py "$tmp" $here/sklearn.json
