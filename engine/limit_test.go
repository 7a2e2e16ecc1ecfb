package engine

import (
	"errors"
	"fmt"
	"testing"
)

func TestLimitfIsErrLimit(t *testing.T) {
	err := Limitf("k=%d but the training part has %d rows", 200, 120)
	if err.Error() != "k=200 but the training part has 120 rows" {
		t.Errorf("message %q", err)
	}
	if !errors.Is(fmt.Errorf("knn on iris: %w", err), ErrLimit) {
		t.Error("a wrapped Limitf error is not ErrLimit")
	}
	if errors.Is(errors.New("k=200"), ErrLimit) {
		t.Error("a plain error is ErrLimit")
	}
}
