// Package stages turns the five stage sites of a client-go controller
// (locate's stage rows: watch, enqueue, dequeue, read, write) into what a
// reader uses to watch one object go through them: the patch that adds one
// tagged klog line per stage (STAGE/watch … STAGE/write) to the controller's
// source, the views of the stages (text, markdown, a mermaid sequence
// diagram), and the reading of a controller's log against them (which stages
// fired, how often, and whether the object settles or loops).
package stages

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
)

// Change is one file the patch changes.
type Change struct {
	Path     string // absolute
	Rel      string // relative to the patched directory, slash-separated
	Old, New []byte
}

// Patch applies the probes to the files of the module in dir, in memory: the
// lines inserted, klog imported where a file needs it, each file gofmt'ed.
// Files whose probes are all present already are not changed, so patching a
// patched tree changes nothing.
func Patch(dir string, ins *Instrumentation) ([]Change, error) {
	if ins == nil {
		return nil, nil
	}
	root, err := canonical(dir)
	if err != nil {
		return nil, err
	}
	byFile := map[string][]Probe{}
	var files []string
	for _, p := range ins.Probes {
		if byFile[p.File] == nil {
			files = append(files, p.File)
		}
		byFile[p.File] = append(byFile[p.File], p)
	}
	sort.Strings(files)
	var out []Change
	for _, file := range files {
		c, err := patchFile(file, byFile[file])
		if err != nil {
			return nil, err
		}
		path, err := canonical(file)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s: a stage lies in %s, outside the module; patch the module that holds the controller", dir, file)
		}
		c.Rel = filepath.ToSlash(rel)
		out = append(out, c)
	}
	return out, nil
}

func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return abs, nil
}

// patchFile inserts one file's probes.
func patchFile(file string, probes []Probe) (Change, error) {
	old, err := os.ReadFile(file)
	if err != nil {
		return Change{}, err
	}
	sort.SliceStable(probes, func(i, j int) bool { return probes[i].Offset < probes[j].Offset })
	var b bytes.Buffer
	at := 0
	importAs, importPath := "", ""
	for _, p := range probes {
		if p.Offset < at || p.Offset > len(old) {
			return Change{}, fmt.Errorf("%s changed while it was read (a stage line falls at byte %d of %d); run the command again", file, p.Offset, len(old))
		}
		b.Write(old[at:p.Offset])
		b.WriteString(p.Code())
		at = p.Offset
		if p.End > p.Offset && p.End <= len(old) {
			at = p.End // the probe replaces the handler expression
		} else {
			b.WriteString("\n")
		}
		if p.log.importAs != "" {
			importAs, importPath = p.log.importAs, klogPath
		}
	}
	b.Write(old[at:])
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, b.Bytes(), parser.ParseComments)
	if err != nil {
		return Change{}, fmt.Errorf("%s: the stage lines do not parse (%v); this is a ctrlcmp bug, please report it with the file", file, err)
	}
	if importPath != "" {
		name := importAs
		if name == "klog" { // the package's own name needs none
			name = ""
		}
		astutil.AddNamedImport(fset, f, name, importPath)
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return Change{}, fmt.Errorf("%s: cannot format the patched file: %v", file, err)
	}
	return Change{Path: file, Old: old, New: out.Bytes()}, nil
}

// Diff is the unified diff of the changes, with a/ and b/ paths relative to
// the patched directory, so that `git apply` or `patch -p1` in it takes it.
func Diff(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		d := diff.Unified(c.Rel, c.Old, c.New)
		if d == "" {
			continue
		}
		// Replace the journal's header with git's.
		_, hunks, _ := strings.Cut(d, "\n")
		_, hunks, _ = strings.Cut(hunks, "\n")
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s", c.Rel, c.Rel, c.Rel, c.Rel, hunks)
	}
	return b.String()
}

// Write applies the changes in place, all or nothing as far as the file
// system allows: every new file is written next to its original first, then
// each is renamed over it, keeping its mode.
func Write(changes []Change) error {
	type pending struct{ tmp, path string }
	var done []pending
	cleanup := func() {
		for _, p := range done {
			os.Remove(p.tmp)
		}
	}
	for _, c := range changes {
		if bytes.Equal(c.Old, c.New) {
			continue
		}
		st, err := os.Stat(c.Path)
		if err != nil {
			cleanup()
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(c.Path), "."+filepath.Base(c.Path)+".ctrlcmp-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("cannot write the patched %s next to it: %w", c.Path, err)
		}
		done = append(done, pending{tmp.Name(), c.Path})
		_, err = tmp.Write(c.New)
		if err == nil {
			err = tmp.Chmod(st.Mode().Perm())
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			cleanup()
			return fmt.Errorf("writing the patched %s: %w", c.Path, err)
		}
	}
	for i, p := range done {
		if err := os.Rename(p.tmp, p.path); err != nil {
			cleanup()
			return fmt.Errorf("replacing %s (%d of %d files already patched): %w", p.path, i, len(done), err)
		}
	}
	return nil
}
