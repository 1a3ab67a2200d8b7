package resultcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// LocalKey is the key of the local tree at dir (a module's directory).
// onItsOwn says that the tree is loaded on its own (load.OnItsOwn: theirs),
// without the workspace of the user's GOWORK.
func LocalKey(dir string, onItsOwn bool) (Key, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return Key{}, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "citations relative to %s\n", citationRoot(abs))
	hashTree(h, abs)
	for _, r := range outsideReplacements(abs) {
		fmt.Fprintf(h, "replacement %s\n", r)
		hashTree(h, r)
	}
	k, err := key("local "+abs, "", abs, onItsOwn)
	if err != nil {
		return Key{}, err
	}
	hashWorkspace(h, abs, k.Go)
	k.Content = hex.EncodeToString(h.Sum(nil))
	return k, nil
}

// hashWorkspace writes into h the workspace the go command loads the
// module at dir in (settings is goSettings' JSON, which names its go.work
// file): the go.work and go.work.sum files and every module it uses
// outside dir, whose packages the tree is typed against.
func hashWorkspace(h hash.Hash, dir, settings string) {
	var s struct{ GOWORK string }
	if json.Unmarshal([]byte(settings), &s) != nil || !filepath.IsAbs(s.GOWORK) {
		return
	}
	fmt.Fprintf(h, "workspace %s\n", s.GOWORK)
	data, err := os.ReadFile(s.GOWORK)
	if err != nil {
		fmt.Fprintf(h, "unreadable %q\n", s.GOWORK)
		return
	}
	sum := sha256.Sum256(data)
	fmt.Fprintf(h, "go.work %x\n", sum)
	if data, err := os.ReadFile(s.GOWORK + ".sum"); err == nil {
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "go.work.sum %x\n", sum)
	}
	wf, err := modfile.ParseWork(s.GOWORK, data, nil)
	if err != nil {
		return
	}
	for _, u := range wf.Use {
		used := u.Path
		if !filepath.IsAbs(used) {
			used = filepath.Join(filepath.Dir(s.GOWORK), used)
		}
		if rel, err := filepath.Rel(dir, used); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			fmt.Fprintf(h, "used module %s\n", used)
			hashTree(h, used)
		}
	}
}

// PinnedKey is the key of a pinned tree: the verified checkout at dir of a
// repository at sha, which names its content, with its go.sum. A pinned
// tree is loaded on its own (load.OnItsOwn).
func PinnedKey(dir, sha string) (Key, error) {
	content := "sha " + sha + ", no go.sum"
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	switch {
	case err == nil:
		h := sha256.Sum256(sum)
		content = "sha " + sha + ", go.sum " + hex.EncodeToString(h[:])
	case !os.IsNotExist(err):
		return Key{}, err
	}
	return key("pinned "+dir+" at "+sha, content, dir, true)
}

// DerivedKey is the key of what ctrlcmp derives from content alone, where
// content names every input (the go command's settings among them): it
// holds ctrlcmp's build and no go settings.
func DerivedKey(slot, content string) (Key, error) {
	build, err := executableBuild()
	if err != nil {
		return Key{}, err
	}
	return Key{Slot: slot, Content: content, Build: build}, nil
}

// key completes a key with ctrlcmp's build and the go command's settings
// in dir (without the user's GOWORK when onItsOwn).
func key(slot, content, dir string, onItsOwn bool) (Key, error) {
	build, err := executableBuild()
	if err != nil {
		return Key{}, err
	}
	settings, err := goSettings(dir, onItsOwn)
	if err != nil {
		return Key{}, err
	}
	return Key{Slot: slot, Content: content, Build: build, Go: settings}, nil
}

// analysed says whether the analysis reads a file of this name: Go files,
// the module files (vendor/modules.txt among them) and the YAML files CRDs
// are read from.
func analysed(name string) bool {
	switch name {
	case "go.mod", "go.sum", "modules.txt":
		return true
	}
	ext := filepath.Ext(name)
	return ext == ".go" || ext == ".yaml" || ext == ".yml"
}

// hashTree writes into h the path and content of every file under root the
// analysis reads, in walk order (lexical), .git left out. A symlink is
// written with where it leads and the content it leads to; a file or
// directory that cannot be read is written as such.
func hashTree(h hash.Hash, root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, path)
		if err != nil {
			fmt.Fprintf(h, "unreadable %q\n", rel)
			return nil
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !analysed(d.Name()) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(path)
			fmt.Fprintf(h, "symlink %q to %q\n", rel, to)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(h, "unreadable %q\n", rel)
			return nil
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "file %q %x\n", rel, sum)
		return nil
	})
}

// citationRoot is where load makes citations relative to: the nearest
// ancestor of dir (dir included) holding .git, else dir.
func citationRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// outsideReplacements are the directories outside dir that its go.mod
// replaces modules with: they are loaded as dependencies from source.
func outsideReplacements(dir string) []string {
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return nil // hashed as unreadable; the analysis fails on it
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, r := range mf.Replace {
		if r.New.Version != "" {
			continue
		}
		target := filepath.Clean(filepath.Join(dir, r.New.Path))
		if filepath.IsAbs(r.New.Path) {
			target = filepath.Clean(r.New.Path)
		}
		if rel, err := filepath.Rel(dir, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			dirs = append(dirs, target)
		}
	}
	return dirs
}

// goSettingNames are the go command's settings that change which files
// are loaded and how they type-check.
var goSettingNames = []string{"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "GOWORK",
	"GOAMD64", "GOARM", "GOARM64", "GO386", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM"}

// goSettings are the go command's settings in dir, as load runs it (cgo
// off, the local toolchain, the workspace the user's go command uses, or
// for a tree loaded on its own the one the go command finds from dir), as
// compact JSON.
func goSettings(dir string, onItsOwn bool) (string, error) {
	cmd := exec.Command("go", append([]string{"env", "-json"}, goSettingNames...)...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !onItsOwn || !strings.HasPrefix(kv, "GOWORK=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, out); err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	return compact.String(), nil
}

// executableBuild names the build of the running ctrlcmp, once per
// process.
var executableBuild = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if id := goBuildID(exe); id != "" {
		return "go build ID " + id, nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256 " + hex.EncodeToString(h.Sum(nil)), nil
})

// goBuildID reads the Go build ID of an ELF executable from its
// .note.go.buildid section (a few bytes near its start); "" when it has
// none, or is not ELF.
func goBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	note, err := s.Data()
	if err != nil || len(note) < 16 {
		return ""
	}
	// An ELF note: name size, description size, type, then the name
	// ("Go\x00", padded to 4 bytes) and the description (the build ID).
	nameSize, descSize := f.ByteOrder.Uint32(note[0:]), f.ByteOrder.Uint32(note[4:])
	start := 12 + (uint64(nameSize)+3)&^3
	if string(note[12:12+min(uint64(nameSize), 2)]) != "Go" || start+uint64(descSize) > uint64(len(note)) {
		return ""
	}
	return string(note[start : start+uint64(descSize)])
}
