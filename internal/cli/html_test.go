package cli

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocateHTML writes the page of one client-go fixture: the entry's
// excerpt comes from the tree on disk, its cited line marked, and the
// citation links to the file (a local tree has no permalink).
func TestLocateHTML(t *testing.T) {
	dir := copyFixture(t, "clientgo-finalizer")
	t.Chdir(dir)
	code, out, errs := run(t, "locate", "clientgo-finalizer", "--format", "html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The entry: the sync function (the fixture's want comment).
	src, err := os.ReadFile(filepath.Join(dir, "clientgo-finalizer", "pkg", "controller", "controller.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, `want "reconcile-entry"`) {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("the fixture marks no reconcile-entry")
	}
	for _, want := range []string{
		fmt.Sprintf(`<mark class="line cited" data-line="%d" aria-current="true">`, line),
		(&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "clientgo-finalizer", "pkg", "controller", "controller.go"))}).String(),
		`<details class="row" id="row-reconcile-entry">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(out, "no excerpt") {
		t.Errorf("an excerpt of the fixture's own files is missing")
	}
}
