package resultcache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLocalKey changes a tree (and a module its go.mod replaces from
// outside it) one file at a time: the key's content changes with every
// file the analysis reads, and with none other.
func TestLocalKey(t *testing.T) {
	work := t.TempDir()
	tree := filepath.Join(work, "op")
	write(t, filepath.Join(tree, "go.mod"), "module example.com/op\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n")
	write(t, filepath.Join(tree, "go.sum"), "")
	write(t, filepath.Join(tree, "main.go"), "package main\n\nfunc main() {}\n")
	write(t, filepath.Join(tree, "config", "crd.yaml"), "kind: CustomResourceDefinition\n")
	write(t, filepath.Join(tree, "README.md"), "# op\n")
	write(t, filepath.Join(tree, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tree, "vendor", "modules.txt"), "# example.com/lib v0.0.0\n")
	write(t, filepath.Join(work, "lib", "go.mod"), "module example.com/lib\n")
	write(t, filepath.Join(work, "lib", "lib.go"), "package lib\n")

	first, err := LocalKey(tree, false)
	if err != nil {
		t.Fatal(err)
	}
	if first.Build == "" || !strings.Contains(first.Go, `"GOVERSION"`) {
		t.Fatalf("key %+v: no build or go settings", first)
	}
	last := first
	for _, tc := range []struct {
		file    string // relative to work
		changes bool
	}{
		{"op/main.go", true},
		{"op/config/crd.yaml", true},
		{"op/config/other.yml", true}, // a new file
		{"op/go.sum", true},
		{"op/go.mod", true},
		{"op/vendor/modules.txt", true},
		{"op/vendor/example.com/lib/lib.go", true},
		{"lib/lib.go", true}, // the replacement, outside the tree
		{"op/README.md", false},
		{"op/.git/HEAD", false},
		{"op/.git/x.go", false},
		{"unrelated.go", false},
	} {
		path := filepath.Join(work, filepath.FromSlash(tc.file))
		data, _ := os.ReadFile(path)
		write(t, path, string(data)+"// changed\n")
		k, err := LocalKey(tree, false)
		if err != nil {
			t.Fatal(err)
		}
		if k.Slot != first.Slot || k.Build != first.Build || k.Go != first.Go {
			t.Errorf("%s: the slot, build or settings changed: %+v, was %+v", tc.file, k, first)
		}
		if changed := k.Content != last.Content; changed != tc.changes {
			t.Errorf("%s changed: the key's content changed: %v, want %v", tc.file, changed, tc.changes)
		}
		last = k
	}

	// Where citations are relative to is part of the content.
	if err := os.Rename(filepath.Join(tree, ".git"), filepath.Join(work, ".git")); err != nil {
		t.Fatal(err)
	}
	if k, _ := LocalKey(tree, false); k.Content == last.Content {
		t.Error("a tree whose citations are now relative to its parent kept its key")
	}
	// The slot is the directory, whatever the path it is named by.
	if err := os.Symlink(tree, filepath.Join(work, "link")); err != nil {
		t.Fatal(err)
	}
	if k, _ := LocalKey(filepath.Join(work, "link"), false); k.Slot != first.Slot {
		t.Errorf("through a symlink, slot %q, want %q", k.Slot, first.Slot)
	}
}

// TestPinnedKey: a pinned tree's key is its checkout and sha, with its
// go.sum.
func TestPinnedKey(t *testing.T) {
	dir := t.TempDir()
	sha := strings.Repeat("ab", 20)
	none, err := PinnedKey(dir, sha)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), "example.com/lib v0.0.0 h1:x=\n")
	with, err := PinnedKey(dir, sha)
	if err != nil {
		t.Fatal(err)
	}
	if none.Slot != with.Slot || none.Content == with.Content || !strings.Contains(with.Content, sha) {
		t.Errorf("without go.sum %+v, with it %+v", none, with)
	}
	if other, _ := PinnedKey(dir, strings.Repeat("cd", 20)); other.Slot == with.Slot {
		t.Errorf("another sha has the same slot %q", other.Slot)
	}
}

// TestBuildID: ctrlcmp's build is named by the Go build ID that the go
// command reads from the executable.
func TestBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid %s: %v", exe, err)
	}
	want := "go build ID " + strings.TrimSpace(string(out))
	if got, err := executableBuild(); err != nil || got != want {
		t.Errorf("build %q (%v), want %q", got, err, want)
	}
}

type value struct {
	Name  string
	Lines []int
}

// TestStore: a stored value comes back as it was stored, under its key
// only; an entry that is damaged, truncated, of another format or not one
// at all is a miss that says so, and the next Put rewrites it.
func TestStore(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k := Key{Slot: "local /op", Content: "c1", Build: "b1", Go: "g1"}
	var v value
	if miss := s.Get(k, &v); miss != "no result stored for this tree" {
		t.Errorf("empty store: %q", miss)
	}
	stored := value{Name: "op", Lines: []int{1, 2}}
	if err := s.Put(k, stored); err != nil {
		t.Fatal(err)
	}
	if miss := s.Get(k, &v); miss != "" || v.Name != "op" || len(v.Lines) != 2 {
		t.Fatalf("stored %+v, read %+v (miss %q)", stored, v, miss)
	}
	for _, tc := range []struct {
		change func(k *Key)
		miss   string
	}{
		{func(k *Key) { k.Content = "c2" }, "the tree changed since its result was stored"},
		{func(k *Key) { k.Build = "b2" }, "the stored result is of another ctrlcmp build"},
		{func(k *Key) { k.Go = "g2" }, "the go command or its settings changed since the result was stored"},
	} {
		other := k
		tc.change(&other)
		if miss := s.Get(other, &v); miss != tc.miss {
			t.Errorf("miss %q, want %q", miss, tc.miss)
		}
	}

	path := s.path(k.Slot)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-3] ^= 1
	for _, tc := range []struct {
		name, entry, miss string
	}{
		{"a flipped byte", string(flipped), "the stored result is damaged (its checksum does not match its content)"},
		{"truncated", string(good[:len(good)/2]), "the stored result is damaged (its checksum does not match its content)"},
		{"no header", "{}", "the stored result is damaged (no header line)"},
		{"another format", strings.Replace(string(good), format, "ctrlcmp-result/0", 1), "the stored result is damaged (not a " + format + " entry)"},
		{"empty", "", "the stored result is damaged (no header line)"},
	} {
		if err := os.WriteFile(path, []byte(tc.entry), 0o600); err != nil {
			t.Fatal(err)
		}
		v = value{}
		if miss := s.Get(k, &v); miss != tc.miss || v.Name != "" {
			t.Errorf("%s: miss %q, want %q; read %+v", tc.name, miss, tc.miss, v)
		}
		if err := s.Put(k, stored); err != nil {
			t.Fatal(err)
		}
		if miss := s.Get(k, &v); miss != "" {
			t.Errorf("%s, rewritten: miss %q", tc.name, miss)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(s.dir, ".tmp-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestLocalKeyWorkspace: a module of a go.work workspace is keyed with
// the workspace: its go.work file and the modules it uses outside the
// tree change the key's content, and GOWORK=off changes its settings.
func TestLocalKeyWorkspace(t *testing.T) {
	t.Setenv("GOWORK", "")
	work := t.TempDir()
	tree := filepath.Join(work, "op")
	write(t, filepath.Join(work, "go.work"), "go 1.22\n\nuse (\n\t./lib\n\t./op\n)\n")
	write(t, filepath.Join(tree, "go.mod"), "module example.com/op\n\ngo 1.22\n")
	write(t, filepath.Join(tree, "main.go"), "package main\n\nimport _ \"example.com/lib\"\n\nfunc main() {}\n")
	write(t, filepath.Join(work, "lib", "go.mod"), "module example.com/lib\n\ngo 1.22\n")
	write(t, filepath.Join(work, "lib", "lib.go"), "package lib\n")
	first, err := LocalKey(tree, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.Go, filepath.Join(work, "go.work")) {
		t.Fatalf("settings %s do not name the workspace", first.Go)
	}
	last := first
	for _, file := range []string{"lib/lib.go", "go.work", "go.work.sum"} {
		path := filepath.Join(work, file)
		data, _ := os.ReadFile(path)
		write(t, path, string(data)+"// changed\n")
		k, err := LocalKey(tree, false)
		if err != nil {
			t.Fatal(err)
		}
		if k.Content == last.Content {
			t.Errorf("%s changed, and the key's content did not", file)
		}
		last = k
	}
	t.Setenv("GOWORK", "off")
	if k, _ := LocalKey(tree, false); k.Go == first.Go {
		t.Error("GOWORK=off kept the key's settings")
	}
}
