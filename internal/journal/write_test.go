package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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
