package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestUpdateThroughSymlink: a journal that is a symlink is written through:
// the file it leads to gets the table (its mode kept), the link stays a
// link, and no temporary file is left in either directory.
func TestUpdateThroughSymlink(t *testing.T) {
	elsewhere, repo := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "real.md")
	if err := os.WriteFile(target, []byte("# Kept elsewhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(repo, "journal.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Update(link, tableRegion, false); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", st.Mode(), err)
	}
	got, _ := os.ReadFile(target)
	if !strings.HasPrefix(string(got), "# Kept elsewhere\n\n<!-- ctrlcmp:begin id="+tableRegion.ID) {
		t.Errorf("the linked file holds:\n%s", got)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("the linked file's mode is %v, want 0600", st.Mode().Perm())
	}
	for _, dir := range []string{elsewhere, repo} {
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s holds %v, want one file", dir, entries)
		}
	}

	dangling := filepath.Join(repo, "dangling.md")
	if err := os.Symlink(filepath.Join(elsewhere, "nothing.md"), dangling); err != nil {
		t.Fatal(err)
	}
	_, _, err := Update(dangling, tableRegion, false)
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, ErrLinkToNothing) || !strings.Contains(err.Error(), "nothing.md, which does not exist") {
		t.Errorf("Update of a link to nothing: error = %v, want a *WriteError saying so", err)
	}
}

// TestUpdateRefusesReadOnly: a read-only journal (mode 0444) is refused
// with a *WriteError of ErrReadOnly naming it and its mode, also for root,
// and it is left as it was; so is the file a link leads to.
func TestUpdateRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.md")
	if err := os.WriteFile(path, []byte("# Read-only\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		_, _, err := Update(p, tableRegion, false)
		var we *WriteError
		if !errors.As(err, &we) || !errors.Is(err, ErrReadOnly) || we.Path != p || !strings.Contains(err.Error(), "(mode 0444)") {
			t.Errorf("Update(%s) error = %v, want a *WriteError of ErrReadOnly naming it and its mode", p, err)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != "# Read-only\n" {
		t.Errorf("the read-only journal was written:\n%s", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%s holds %v, want the journal and the link", dir, entries)
	}
	// A dry run writes nothing, so nothing is refused.
	if _, _, err := Update(path, tableRegion, true); err != nil {
		t.Errorf("a dry run of a read-only journal: %v", err)
	}
}

// TestLatin1Journal (case 13 of the hostile-input trial, docs/cases.md): a
// journal that is not UTF-8 (Latin-1 prose around its fence, a byte that
// is no UTF-8 inside it) gets its fence replaced with every byte outside it
// kept, and check reads it: the citations in its Latin-1 prose are found
// and checked.
func TestLatin1Journal(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "op/a.go", "package a\n\nfunc A() {}\n")
	r := Region{ID: "table/A/B", Body: "| part | ours |\n|---|---|\n| the entry | none |\n"}
	before := "# Caf\xe9 notes\n\nVoil\xe0: op/a.go:3 d\xe9clare A.\n\n"
	after := "\nR\xe9sum\xe9: op/a.go:9 n'y est pas.\n"
	path := filepath.Join(dir, "latin1.md")
	writeFile(t, dir, "latin1.md", before+"<!-- ctrlcmp:begin id=table/A/B -->\nold \xff table\n<!-- ctrlcmp:end -->"+after)
	if _, _, err := Update(path, r, false); err != nil {
		t.Fatal(err)
	}
	want := before + fenceText(r, "\n") + after
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Fatalf("the journal holds\n%q\nwant\n%q", got, want)
	}

	res, err := Check(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s %s", f.Citation.Location(), f.Status))
	}
	wantFindings(t, got, "op/a.go:3 unverified", "op/a.go:9 broken")
}

// TestConcurrentUpdates (case 25 of the hostile-input trial): writers
// putting different fences into one journal at the same time take turns:
// each succeeds, the journal then parses, holds the prose as it was and
// every fence whole, and no temporary or lock file is left beside it.
func TestConcurrentUpdates(t *testing.T) {
	const prose = "# Shared journal\n\nWords I wrote.\n"
	regions := []Region{
		{ID: "table/A/Ours", Body: "| a | ours |\n"},
		{ID: "table/B/Mine", Body: "| b | mine |\n"},
	}
	for trial := range 20 {
		dir := t.TempDir()
		path := filepath.Join(dir, "j.md")
		writeFile(t, dir, "j.md", prose)
		var wg sync.WaitGroup
		errs := make([]error, len(regions))
		for i, r := range regions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, errs[i] = Update(path, r, false)
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		got, _ := os.ReadFile(path)
		d := Parse(got)
		if len(d.Problems) > 0 || len(d.Fences) != len(regions) || !strings.HasPrefix(string(got), prose) {
			t.Fatalf("trial %d: the journal is torn or lost a fence:\n%s", trial, got)
		}
		for _, f := range d.Fences {
			i := slices.IndexFunc(regions, func(r Region) bool { return r.ID == f.ID })
			if i < 0 || string(got[f.Start:f.End]) != fenceText(regions[i], "\n") {
				t.Errorf("trial %d: fence %s is not the one written:\n%s", trial, f.ID, got[f.Start:f.End])
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("trial %d: %s holds %v, want the journal alone", trial, dir, entries)
		}
	}
}
