package load

import (
	"bufio"
	"context"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadExportData reads the export data the go command names for a
// standard package (`go list -export`, a compiler archive before Go 1.28),
// and refuses a file that is neither an archive nor export data, naming it.
func TestReadExportData(t *testing.T) {
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", "errors").Output()
	if err != nil {
		t.Fatalf("go list -export errors: %v", err)
	}
	file := strings.TrimSpace(string(out))
	pkg, err := readExportData(token.NewFileSet(), map[string]*types.Package{}, "errors", file)
	if err != nil {
		t.Fatal(err)
	}
	if obj := pkg.Scope().Lookup("New"); obj == nil || obj.Type().String() != "func(text string) error" {
		t.Errorf("errors.New from the export data: %v", obj)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := exportSection(bufio.NewReader(f))
	if err != nil || len(data) == 0 || (data[0] != 'u' && data[0] != 'i') {
		t.Errorf("exportSection: %d bytes starting %q, %v; want unified or indexed export data", len(data), data[:min(len(data), 1)], err)
	}

	bad := filepath.Join(t.TempDir(), "bad.a")
	os.WriteFile(bad, []byte("!<arch>\nnot a header"), 0o644)
	if _, err := readExportData(token.NewFileSet(), map[string]*types.Package{}, "x", bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a damaged archive: %v, want an error naming %s", err, bad)
	}
}

// TestTypesWarnsWhenExportDataFails: a dependency whose export data cannot
// be read when the analysis asks for its complete types keeps the types it
// had, and a warning, given once, names it and the fix.
func TestTypesWarnsWhenExportDataFails(t *testing.T) {
	tree, err := LoadFrom(context.Background(), filepath.Join("..", "..", "testdata", "load", "cgouser", "tree"), nil, ExportData)
	if err != nil {
		t.Fatal(err)
	}
	const lib = "example.com/cgouser/lib"
	x := tree.graph.exports
	if x == nil {
		t.Fatalf("dependencies typed from %s, want export data", tree.DepsFrom)
	}
	before := tree.graph.byPath[lib].pkg.Types
	bad := filepath.Join(t.TempDir(), "lib.a")
	os.WriteFile(bad, []byte("not export data"), 0o644)
	x.files[lib], x.read[lib] = bad, false
	warned := len(tree.Warnings)
	if got := tree.Types(lib); got != before {
		t.Errorf("Types after a failed read: %v, want the types it had", got)
	}
	tree.Types(lib)
	if w := tree.Warnings[warned:]; len(w) != 1 || !strings.Contains(w[0], lib) || !strings.Contains(w[0], bad) || !strings.Contains(w[0], "go clean -cache") {
		t.Errorf("warnings %q, want one naming %s, the file and the fix", w, lib)
	}
}
