package locate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestKindThroughInterface: a reconciler that reads its object by the
// request's key as an interface, registered for a concrete kind, has the
// registration's kind, its re-read says so, and the rows that search for
// the kind's own operations are not settled rather than a false none; a
// reconciler of the same tree that reads its object as what it is keeps
// its nones.
func TestKindThroughInterface(t *testing.T) {
	l := locateFixture(t, "ifacekind")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	kindRows := []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove}
	for _, c := range l.ctrls {
		through := c.Name == "ObjectReconciler"
		if through {
			if c.Kind != "Widget" {
				t.Errorf("%s: kind %q, want Widget (the registration's)", c.Name, c.Kind)
			}
			if p, ok := c.Rows[locate.RowReread].Primary(); !ok || !strings.Contains(p.Note, "its kind is the registration's") {
				t.Errorf("%s: reread %+v, want the Get with a note that the kind is the registration's", c.Name, c.Rows[locate.RowReread])
			}
		}
		for _, id := range kindRows {
			reason := c.Rows[id].None
			if got := strings.HasPrefix(reason, "not settled: the primary object is handled as"); got != through {
				t.Errorf("%s: %s: %q, want not settled through the interface: %v", c.Name, id, reason, through)
			}
		}
	}
}

// TestNotFoundIsNotSettled: a registration whose reconciler ctrlcmp cannot
// follow (it is read from a package variable, or it is the parameter of a
// layer no followed call hands one) leaves no controller; the error says
// the search is not settled and where the trail ended, not that the tree
// has no controller.
func TestNotFoundIsNotSettled(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		want       []string
	}{
		{"package variable", `package main

import (
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

var registry = map[string]reconcile.Reconciler{}

func setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(registry["secrets"])
}

func main() { _ = setup }
`, []string{"not settled", "main.go:12", "a package variable"}},
		{"uncalled layer", `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func add(mgr ctrl.Manager, r reconcile.Reconciler) error {
	_, err := controller.New("secrets", mgr, controller.Options{Reconciler: r})
	return err
}

func main() { _ = add }
`, []string{"not settled", "main.go:10", "a parameter of add"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := locateCode(t, tc.code)
			if err == nil {
				t.Fatal("found controllers, want an error")
			}
			t.Log(err)
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// locateCode locates a module of one main.go (requiring what the
// ownbuilder fixture requires) and returns Locate's error.
func locateCode(t *testing.T, code string) error {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "src", "ownbuilder")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := load.Load(context.Background(), dir, nil, nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	prog := callgraph.Build(tree.All, tree.Own)
	_, _, err = locate.Locate(context.Background(), tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	return err
}

// TestLocateCancelled checks that a cancelled context (the user's Ctrl-C)
// ends Locate before it answers a controller's rows, with the context's
// error, where it had run every locator to the end.
func TestLocateCancelled(t *testing.T) {
	tree, err := load.Load(context.Background(), filepath.Join("..", "..", "testdata", "src", "ownbuilder"), nil, nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	prog := callgraph.Build(tree.All, tree.Own)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ctrls, _, err := locate.Locate(ctx, tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	if !errors.Is(err, context.Canceled) || len(ctrls) != 0 {
		t.Errorf("Locate under a cancelled context: %d controllers, error %v; want none and context.Canceled", len(ctrls), err)
	}
}
