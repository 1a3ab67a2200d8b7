// Package resultcache keeps the analysis of a tree under ctrlcmp's cache
// directory, so that a run on a tree that has not changed since the last one
// reads its result instead of analysing the tree again. The same checked,
// atomic entries keep, in a directory of their own, what the loader derives
// from dependencies alone (OpenTypes, DerivedKey).
//
// A result is stored under the tree it describes (its slot: a local tree's
// directory, or a pinned tree's checkout at its sha) with the key it is a
// function of:
//
//   - the tree's content: for a local tree, a hash of every file the
//     analysis reads (Go files, vendored ones included; go.mod, go.sum and
//     vendor/modules.txt; the YAML files CRDs are read from), of the modules
//     go.mod replaces with directories outside the tree, and of where its
//     citations are relative to (the nearest directory holding .git); for a
//     pinned tree, its sha and a hash of its go.sum;
//   - ctrlcmp's build: the Go build ID of the running executable, which
//     changes with any source, dependency, flag or toolchain of the build
//     (the executable's SHA-256 when it carries none);
//   - the go command's settings that change what is loaded: its version and
//     GOROOT, GOOS, GOARCH and the architecture's level, GOFLAGS and
//     GOEXPERIMENT.
//
// A stored result is read back only when all three match, and only when its
// entry is whole: an entry carries a format version and the SHA-256 of its
// body, and one that fails either check is ignored and rewritten, never
// trusted. Entries are written to a temporary file and renamed into place,
// so a reader sees a whole entry or none; a slot keeps one entry, the latest.
package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// format names the layout of an entry; a change of layout changes it, and
// entries of another layout are ignored and rewritten.
const format = "ctrlcmp-result/1"

// Key is what a stored result is a function of.
type Key struct {
	// Slot names the tree: a local tree's directory, or a pinned tree's
	// checkout and sha. It names the entry's file.
	Slot string `json:"slot"`
	// Content is the tree's content, hashed.
	Content string `json:"content"`
	// Build is ctrlcmp's build.
	Build string `json:"build"`
	// Go is the go command's settings.
	Go string `json:"go"`
}

// Store is the directory results are kept in.
type Store struct {
	dir string
	// what a stored entry is called in the reasons for a miss: "result",
	// or "entry" for what the loader keeps.
	what string
}

// Open returns the store of results under ctrlcmp's cache directory
// cacheDir, creating it when missing.
func Open(cacheDir string) (*Store, error) {
	return open(filepath.Join(cacheDir, "results"), "result")
}

// OpenTypes returns the store of the dependency types the loader keeps
// between runs, beside the results, creating it when missing.
func OpenTypes(cacheDir string) (*Store, error) {
	return open(filepath.Join(cacheDir, "types"), "entry")
}

func open(dir, what string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the cache %s: %w", dir, err)
	}
	return &Store{dir: dir, what: what}, nil
}

// entry is a stored result as it is written, below its header line.
type entry struct {
	Key   Key             `json:"key"`
	Value json.RawMessage `json:"value"`
}

// path is the file of a slot's entry.
func (s *Store) path(slot string) string {
	sum := sha256.Sum256([]byte(slot))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:12])+".json")
}

// Get decodes into v the result stored under k. It returns "" on a hit, and
// otherwise why there is none to use (and v is untouched): nothing stored
// for the tree, an entry that is damaged or of another format, or the part
// of the key that changed.
func (s *Store) Get(k Key, v any) (miss string) {
	data, err := os.ReadFile(s.path(k.Slot))
	if errors.Is(err, fs.ErrNotExist) {
		return "no " + s.what + " stored for this tree"
	}
	if err != nil {
		return fmt.Sprintf("the stored %s cannot be read (%v)", s.what, err)
	}
	e, err := decode(data)
	if err != nil {
		return fmt.Sprintf("the stored %s is damaged (%v)", s.what, err)
	}
	switch {
	case e.Key.Slot != k.Slot:
		return "no " + s.what + " stored for this tree"
	case e.Key.Content != k.Content:
		return "the tree changed since its " + s.what + " was stored"
	case e.Key.Build != k.Build:
		return "the stored " + s.what + " is of another ctrlcmp build"
	case e.Key.Go != k.Go:
		return "the go command or its settings changed since the " + s.what + " was stored"
	}
	if err := json.Unmarshal(e.Value, v); err != nil {
		return fmt.Sprintf("the stored %s is damaged (%v)", s.what, err)
	}
	return ""
}

// decode checks an entry's header (format and checksum) and decodes its
// body.
func decode(data []byte) (entry, error) {
	header, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return entry{}, errors.New("no header line")
	}
	name, sum, ok := strings.Cut(string(header), " sha256:")
	if !ok || name != format {
		return entry{}, fmt.Errorf("not a %s entry", format)
	}
	if got := sha256.Sum256(body); hex.EncodeToString(got[:]) != sum {
		return entry{}, errors.New("its checksum does not match its content")
	}
	var e entry
	if err := json.Unmarshal(body, &e); err != nil {
		return entry{}, err
	}
	return e, nil
}

// Put stores v as the result of k, replacing what the slot held.
func (s *Store) Put(k Key, v any) error {
	value, err := json.Marshal(v)
	if err != nil {
		return err
	}
	body, err := json.Marshal(entry{Key: k, Value: value})
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	tmp, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write the result cache %s: %w", s.dir, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed into place
	_, err = fmt.Fprintf(tmp, "%s sha256:%s\n%s", format, hex.EncodeToString(sum[:]), body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path(k.Slot))
	}
	if err != nil {
		return fmt.Errorf("cannot write the result cache %s: %w", s.dir, err)
	}
	return nil
}
