package datasets

import (
	"reflect"
	"strings"
	"testing"
)

func TestTableDrop(t *testing.T) {
	tab, err := Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tab.Drop("sepal_width_cm", "petal_width_cm")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got.Columns {
		names = append(names, c.Name)
	}
	if want := []string{"sepal_length_cm", "petal_length_cm", "species"}; !reflect.DeepEqual(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}
	if r, c := got.Data.Dims(); r != 150 || c != 3 {
		t.Fatalf("data %dx%d, want 150x3", r, c)
	}
	if got.Data.At(7, 1) != tab.Data.At(7, 2) || got.Data.At(7, 2) != tab.Data.At(7, 4) {
		t.Error("values moved with their columns")
	}
	if _, err := tab.Drop("petal"); err == nil || !strings.Contains(err.Error(), `"petal"`) || !strings.Contains(err.Error(), "sepal_length_cm") {
		t.Errorf("unknown column: err %v, want one naming it and the columns", err)
	}
	if _, err := tab.Drop("sepal_length_cm", "sepal_width_cm", "petal_length_cm", "petal_width_cm", "species"); err == nil {
		t.Error("dropping every column was accepted")
	}
	if same, _ := tab.Drop(); same != tab {
		t.Error("dropping nothing should return the table")
	}
}
