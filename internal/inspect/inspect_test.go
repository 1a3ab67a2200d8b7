package inspect

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// TestSelect picks controllers in the samekind fixture, which holds two
// reconcilers of kind ConfigMap: the kind gives both to Matching and is
// ambiguous to Select, whose error lists them and asks for the reconciler's
// type name; that name (in any case) picks one.
func TestSelect(t *testing.T) {
	tree, err := Tree(context.Background(), filepath.Join("..", "..", "testdata", "src", "samekind"), "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	both, err := Matching(tree, "configmap")
	if err != nil || len(both) != 2 {
		t.Fatalf("Matching(configmap): %d controllers, %v; want both", len(both), err)
	}
	_, err = Select(tree, "ConfigMap", "--kind")
	if fail.Code(err) != fail.CodeUsage {
		t.Fatalf("Select(ConfigMap): %v, want a usage error", err)
	}
	for _, want := range []string{"2 controllers of kind \"ConfigMap\"", "ConfigMap (LabelReconciler), ConfigMap (PruneReconciler)", "reconciler's type name, e.g. --kind LabelReconciler"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Select(ConfigMap): %q does not say %q", err, want)
		}
	}
	c, err := Select(tree, "prunereconciler", "--kind")
	if err != nil || c.Name != "PruneReconciler" {
		t.Errorf("Select(prunereconciler): %s, %v; want PruneReconciler", c.Name, err)
	}
	if _, err := Select(tree, "", "--kind"); err == nil || !strings.Contains(err.Error(), "holds 2 controllers") {
		t.Errorf("Select without a kind: %v, want the two controllers listed", err)
	}
	if _, err := Matching(tree, "Secret"); err == nil || !strings.Contains(err.Error(), `no controller of kind "Secret"`) {
		t.Errorf("Matching(Secret): %v, want no such controller", err)
	}
}
