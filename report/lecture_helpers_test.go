package report

import (
	"context"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

// lectureResult runs experiment name with settings to its end and gives
// its result, for a drawing to draw.
func lectureResult[T any](t *testing.T, name string, settings map[string]string) *T {
	t.Helper()
	e, err := lecture.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	rec := lecture.Start(context.Background(), e, lecture.In{Values: v}, nil)
	if rec.Status != lecture.Done {
		t.Fatalf("%s %v: %s: %s", name, settings, rec.Status, rec.Error)
	}
	return rec.Result.(*T)
}
