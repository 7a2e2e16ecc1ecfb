package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tealab/tealab/datasets"
)

// HashData fingerprints the data a run read, so that a recipe can tell
// whether its data changed: "sha256:" and the file's bytes hashed for a
// file, "spec:" and the source for a built-in or a generator (both are
// deterministic: the name and knobs are the data). Standard input, gone
// once read, has no fingerprint (""). d is the dataset opened from the
// source, which tells a file from a name (Record.Inputs), and whose
// SHA256 was taken as it was read: the file is not opened again (a named
// pipe could not be), and the fingerprint is of the very bytes trained on.
func HashData(data Data, d *datasets.Dataset) (string, error) {
	src := strings.TrimSpace(data.Source)
	switch {
	case src == "" || src == datasets.Stdin:
		return "", nil
	case d != nil && d.SHA256 != "":
		// Checked first: a file always has its bytes hashed, and a lab
		// may show it by another name than src (Dataset.Source).
		return "sha256:" + d.SHA256, nil
	case d != nil && strings.TrimSpace(d.Source) != src:
		return specHash + src, nil // a built-in or a generator: no bytes hashed
	}
	return hashFile(src)
}

// specHash starts the fingerprint of a built-in or a generator.
const specHash = "spec:"

// hashFile is "sha256:" and the hex digest of the file's bytes.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// DataChanged compares the data's fingerprint, as recorded, with the data
// now (d freshly opened from them): "" when they agree or nothing was
// recorded, else a sentence naming the source and both fingerprints.
func DataChanged(data Data, d *datasets.Dataset) string {
	if data.Hash == "" {
		return ""
	}
	now, err := HashData(data, d)
	switch {
	case err != nil:
		return fmt.Sprintf("cannot check whether %s changed since the run: %v", data.Source, err)
	case now == data.Hash:
		return ""
	}
	return HashChanged(data.Source, data.Hash, now)
}

// HashChanged says that source's fingerprint was once was and is now now.
func HashChanged(source, was, now string) string {
	return fmt.Sprintf("data changed since the recipe was written: %s had hash %s, now %s", source, short(was), short(now))
}

// short cuts a fingerprint to what a person compares by eye.
func short(h string) string {
	if kind, hex, ok := strings.Cut(h, ":"); ok && kind == "sha256" && len(hex) > 16 {
		return kind + ":" + hex[:16] + "…"
	}
	return h
}
