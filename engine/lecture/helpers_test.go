package lecture

import (
	"context"
	"testing"
)

// runTo runs experiment name with settings to its end and gives its
// result, failing the test when it does not end done.
func runTo[T any](t *testing.T, name string, settings map[string]string) *T {
	t.Helper()
	e, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	rec := Start(context.Background(), e, In{Values: v}, nil)
	if rec.Status != Done {
		t.Fatalf("%s %v: %s: %s", name, settings, rec.Status, rec.Error)
	}
	return rec.Result.(*T)
}
