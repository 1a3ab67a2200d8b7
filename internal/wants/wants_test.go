package wants

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckNamesTheLine: a misspelled key or qualifier is an error that
// names the file:line it stands on; the keys the tests read are not.
func TestCheckNamesTheLine(t *testing.T) {
	dir := t.TempDir()
	src := `package p

// want-none "finalizer-const" "interval-trace" "drift"

func f() {
	_ = 1 // want "write-alwyas"
	_ = 2 // want "hot-lop" "reread"
	_ = 3 // want "trace:retrun" "trace:return"
	_ = 4 // want "MirorReconciler/reread" "MirrorReconciler/requeue-error"
	_ = 5 // want "condition-set:" "condition-type:Ready" "drift:compare"
	_ = 6 // want "stage-write:update Secret" "stage-reed" "re-entry:Secret add" "stage-watch:handler"
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Scan(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, err := range Check(ws, []string{"MirrorReconciler"}) {
		msg := err.Error()
		got = append(got, msg[:strings.Index(msg, " ")])
	}
	if want := "p.go:6: p.go:7: p.go:8: p.go:9: p.go:10: p.go:11:"; strings.Join(got, " ") != want {
		t.Errorf("errors at %v, want %s", got, want)
	}
}

// TestFixtureKeys checks every fixture's keys without loading it (the
// qualifiers against each other; TestWantKeys in internal/locate checks
// them against the controllers found).
func TestFixtureKeys(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "src")
	ds, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		dir, err := filepath.Abs(filepath.Join(root, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		ws, err := Scan(dir, dir)
		if err != nil {
			t.Fatal(err)
		}
		var ctrls []string
		for _, w := range ws {
			ctrls = append(ctrls, w.Ctrl)
		}
		for _, err := range Check(ws, ctrls) {
			t.Errorf("%s: %v", d.Name(), err)
		}
	}
}
