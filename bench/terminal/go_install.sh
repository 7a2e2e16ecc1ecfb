#!/bin/sh
# go_install.sh [COMMIT] — can Go users install tealab at COMMIT (default HEAD)?
#
# Run from the repository root: sh bench/terminal/go_install.sh [COMMIT]
#
# (a) git clone the repository at COMMIT into a temp dir and run
#     GOBIN=$tmp/bin go install ./...  (what a user with a checkout does);
#     report success and the binaries made.
# (b) go install github.com/tealab/tealab@VERSION (what a user without a
#     checkout does), through a local file GOPROXY built from that clone:
#     $tmp/proxy/github.com/tealab/tealab/@v/{list,VERSION.info,.mod,.zip}
#     with VERSION a pseudo-version v0.0.0-<commit time UTC>-<12 hex>; the
#     module zip is made by golang.org/x/mod/zip.CreateFromDir (as the real
#     proxy does: nested modules such as ./background are left out) from a
#     throwaway Go program in the temp dir. Everything else comes from the
#     module cache (read as a file proxy) or the usual GOPROXY; the install
#     uses a module cache of its own in the temp dir. Go's output is printed
#     as is.
#
# Exit status: 0 when both installs work, 1 otherwise. Temp dirs are removed.
set -u
export PATH="/usr/local/go/bin:$PATH"
commit=${1:-HEAD}
repo=$(git rev-parse --show-toplevel) || exit 2
sha=$(git -C "$repo" rev-parse --verify "$commit^{commit}") || exit 2
tmp=$(mktemp -d /tmp/tl-goinstall.XXXXXX)
# the module cache and downloaded zips are read-only: make them removable
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mod=github.com/tealab/tealab
status=0

echo "== commit $sha ($(go version))"
git clone -q --no-checkout "$repo" "$tmp/src" || exit 2
git -C "$tmp/src" cat-file -e "$sha" 2>/dev/null || git -C "$tmp/src" fetch -q "$repo" "$sha" || exit 2
git -C "$tmp/src" checkout -q --detach "$sha" || exit 2

echo "== (a) git clone + GOBIN=\$tmp/bin go install ./..."
if (cd "$tmp/src" && GOBIN="$tmp/bin" go install ./... 2>&1); then
	echo "result (a): OK; binaries: $(ls "$tmp/bin" | tr '\n' ' ')"
else
	echo "result (a): FAILED"
	status=1
fi

# (b) the local proxy
when=$(TZ=UTC git -C "$tmp/src" log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S "$sha")
iso=$(TZ=UTC git -C "$tmp/src" log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ "$sha")
ver="v0.0.0-$when-$(echo "$sha" | cut -c1-12)"
at="$tmp/proxy/$mod/@v"
mkdir -p "$at" "$tmp/mkzip"
echo "$ver" >"$at/list"
printf '{"Version":"%s","Time":"%s"}\n' "$ver" "$iso" >"$at/$ver.info"
cp "$tmp/src/go.mod" "$at/$ver.mod"
cat >"$tmp/mkzip/main.go" <<'EOF'
// mkzip DIR MODULE VERSION OUT.zip: the module zip the Go proxy would serve.
package main

import (
	"log"
	"os"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	f, err := os.Create(os.Args[4])
	if err != nil {
		log.Fatal(err)
	}
	m := module.Version{Path: os.Args[2], Version: os.Args[3]}
	if err := zip.CreateFromDir(f, m, os.Args[1]); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
EOF
printf 'module mkzip\n\ngo 1.22\n\nrequire golang.org/x/mod v0.42.0\n' >"$tmp/mkzip/go.mod"
# x/mod comes from the module cache when it is there (GOSUMDB=off: no
# checksum database look-up for this throwaway tool), else from GOPROXY.
rm -rf "$tmp/src/.git"
if ! (cd "$tmp/mkzip" && GOFLAGS=-mod=mod GOSUMDB=off go run . "$tmp/src" "$mod" "$ver" "$at/$ver.zip"); then
	echo "result (b): could not make the module zip"
	exit 1
fi
echo "== (b) go install $mod@$ver through file://\$tmp/proxy ($(unzip -l "$at/$ver.zip" 2>/dev/null | tail -1 | awk '{print $2}') files in the zip)"
# A module cache of its own, so that the made-up version does not land in the
# user's; the user's cache serves as a second file proxy (no network when
# everything is there), then the usual GOPROXY.
mkdir -p "$tmp/elsewhere"
cache=$(go env GOMODCACHE)/cache/download
if (cd "$tmp/elsewhere" && GOBIN="$tmp/bin2" GOMODCACHE="$tmp/modcache" \
	GOPROXY="file://$tmp/proxy,file://$cache,$(go env GOPROXY)" \
	GONOSUMDB=$mod GOFLAGS=-mod=mod go install "$mod@$ver" 2>&1); then
	echo "result (b): OK; binaries: $(ls "$tmp/bin2" | tr '\n' ' ')"
else
	echo "result (b): FAILED (the error above is what go prints)"
	status=1
fi
exit $status
