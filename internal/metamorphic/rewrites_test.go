package metamorphic

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"
)

// module is a small module of the standard library only, whose want lines
// each refactoring rewrites or not.
const module = `package p

import "errors"

// Result is what a pass returns.
type Result struct{ After int }

type client struct{ n int }

// Get reads the value at key into obj.
func (c *client) Get(key string, obj *int) error {
	if key == "" {
		return errors.New("empty")
	}
	*obj = c.n
	return nil
}

// R reconciles.
type R struct {
	c *client
}

const finalizer = "p/finalizer"

// Reconcile reads the object and requeues after its value.
func (r *R) Reconcile(key string) (Result, error) { // want "reconcile-entry"
	var obj int
	if err := r.c.Get(key, &obj); err != nil { // want "reread"
		return Result{}, err // want "requeue-error"
	}
	names := addName(nil, finalizer) // want "finalizer-add"
	_ = names
	return Result{After: obj}, nil // want "requeue-success"
}

func addName(names []string, name string) []string {
	return append(names, name) // want "finalizer-remove"
}
`

// TestRewrites applies every refactoring to the module: each rewrites
// exactly the lines it can (the rest n/a, with a reason), keeps the module
// type-checking and every want comment, and gives the same text twice.
func TestRewrites(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "p.go": module} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fx, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	const entry, reread, reqErr, add, reqOK, remove = "p.go:27", "p.go:29", "p.go:30", "p.go:32", "p.go:34", "p.go:38"
	want := map[string][]string{
		"extract-branch": {reread, reqErr},
		"tuple":          {reqErr, reqOK, remove},
		"hoist-local":    {reqErr, reqOK, remove},
		"options":        {reqErr, reqOK, remove},
		"slice-range":    nil,
		"closure-call":   {reread, add, remove},
		"closure-assign": {reread, add, remove},
		"closure-defer":  nil,
		"move-package":   {remove},
		"interface":      {reread},
		"generic":        {reread, add},
		"named-results":  {entry, reqErr, reqOK, remove},
		"delegate-early": {entry, reread, reqErr, add, reqOK},
		"if-switch":      {reread, reqErr},
		"init-split":     {reread, reqErr},
		"field-stores":   {reqOK},
		"wrap-error":     {reqErr},
		"extract-call":   {reread, add},
		"add-defer":      {entry, reread, reqErr, add, reqOK, remove},
	}
	for _, rw := range Rewrites {
		a := fx.Apply(rw)
		var got []string
		for at := range a.Covered {
			if fx.targets["p.go"][lineOf(at)] {
				got = append(got, at)
			}
		}
		sort.Strings(got)
		if !slices.Equal(got, want[rw.Name]) {
			t.Errorf("%s rewrote %v, want %v (n/a: %v)", rw.Name, got, want[rw.Name], a.NA)
		}
		for at := range fx.targets["p.go"] {
			k := "p.go:" + strconv.Itoa(at)
			if !a.Covered[k] && a.NA[k] == "" {
				t.Errorf("%s: %s neither rewritten nor n/a with a reason", rw.Name, k)
			}
		}
		if errs := fx.typeErrors(a.Sources); len(errs) > 0 {
			t.Errorf("%s: %v", rw.Name, errs)
		}
		if again := fx.Apply(rw); !sameSources(a.Sources, again.Sources) {
			t.Errorf("%s: two runs give different text", rw.Name)
		}
		if len(a.Covered) > 0 && len(a.Sources) == 0 {
			t.Errorf("%s: lines rewritten, but no file changed", rw.Name)
		}
	}
}

func lineOf(at string) int {
	_, l := splitAt(at)
	return l
}

func sameSources(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if string(b[k]) != string(v) {
			return false
		}
	}
	return true
}
