package load

import (
	"context"
	"fmt"
	"go/build/constraint"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// dependencyErrors are the errors the go command gave while listing the
// tree's dependencies (a package whose module is missing from go.sum, or
// provided by no required module), one per package, each with the fix: to
// download the module mf requires for it, which records its go.sum lines,
// or to tidy go.mod when mf requires none (in a workspace: to add the
// module that provides it to the workspace, since tidying would break
// it). A replace directive of mf (in dir) whose directory does not exist
// gives one warning, naming its line, for all the packages it leaves out.
// Their own type errors are not among them: their bodies were dropped on
// purpose, which leaves imports unused.
func (t *Tree) dependencyErrors(mf *modfile.File, dir string) []string {
	missing := missingReplacements(mf, dir)
	var out []string
	said := map[*modfile.Replace]bool{}
	for _, p := range t.All {
		if t.isOwnPackage(p) {
			continue
		}
		for _, e := range p.Errors {
			if e.Kind != packages.ListError {
				continue
			}
			if r := replacing(missing, p.PkgPath); r != nil {
				if !said[r] {
					said[r] = true
					out = append(out, fmt.Sprintf("%s:%d: replace %s => %s: that directory does not exist, so no package of %s is loaded; fix the replace line, or put the module there",
						t.relative(filepath.Join(dir, "go.mod")), r.Syntax.Start.Line, r.Old.Path, r.New.Path, r.Old.Path))
				}
				continue
			}
			fix := "run `go mod tidy` in the module to require it and record it in go.sum"
			if t.Workspace != "" {
				fix = "add the module that provides it to the workspace of " + t.Workspace + " (`go work use DIR`), or require it in go.mod"
			}
			if mod := requiredModule(mf, p.PkgPath); mod != "" {
				fix = fmt.Sprintf("run `go mod download %s` in the module to record its go.sum lines", mod)
			}
			out = append(out, fmt.Sprintf("%s: %s; %s", p.PkgPath, strings.Join(strings.Fields(e.Msg), " "), fix))
		}
	}
	return out
}

// missingReplacements are the replace directives of mf (in dir) that
// name a directory that does not exist.
func missingReplacements(mf *modfile.File, dir string) []*modfile.Replace {
	var out []*modfile.Replace
	for _, r := range mf.Replace {
		if r.New.Version != "" {
			continue
		}
		if st, err := os.Stat(replaceDir(r, dir)); err != nil || !st.IsDir() {
			out = append(out, r)
		}
	}
	return out
}

// replaceDir is the directory a local replace directive of the go.mod in
// dir names.
func replaceDir(r *modfile.Replace, dir string) string {
	if filepath.IsAbs(r.New.Path) {
		return filepath.Clean(r.New.Path)
	}
	return filepath.Join(dir, r.New.Path)
}

// replacing is the directive of rs that replaces the module providing the
// package at path (the longest module path it lies under), or nil.
func replacing(rs []*modfile.Replace, path string) *modfile.Replace {
	var best *modfile.Replace
	for _, r := range rs {
		if m := r.Old.Path; (path == m || strings.HasPrefix(path, m+"/")) && (best == nil || len(m) > len(best.Old.Path)) {
			best = r
		}
	}
	return best
}

// excluded are the own files that a //go:build line leaves out, each
// with its constraint, relative to Root and sorted. Files left out by
// their name alone (_windows.go) are not: no tag brings them in.
func (t *Tree) excluded(g *graph) []string {
	var out []string
	for _, n := range g.nodes {
		if n.listed.Dir == "" || !t.IsOwnFile(filepath.Join(n.listed.Dir, "x.go")) {
			continue
		}
		for _, name := range n.listed.IgnoredGoFiles {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.Join(n.listed.Dir, name)
			if expr := buildLine(path); expr != "" {
				out = append(out, fmt.Sprintf("%s (//go:build %s)", t.relative(path), expr))
			}
		}
	}
	sort.Strings(out)
	return out
}

// constrainedFiles are the Go files of the tree (outside vendor, testdata
// and the directories the go command skips) whose //go:build line a build
// with the tags of ctx leaves out, each as excluded has it. A tag is taken
// to hold when it is one of those tags, the target's GOOS or GOARCH, unix
// on a Unix, gc, or a go1.N release tag.
func (t *Tree) constrainedFiles(ctx context.Context) []string {
	holds := map[string]bool{"gc": true, runtime.GOOS: true, goarch(): true}
	for _, tag := range Tags(ctx) {
		holds[tag] = true
	}
	switch runtime.GOOS {
	case "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux", "netbsd", "openbsd", "solaris":
		holds["unix"] = true
	}
	var out []string
	_ = filepath.WalkDir(t.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != t.Dir && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		expr := buildLine(path)
		if expr == "" {
			return nil
		}
		x, err := constraint.Parse("//go:build " + expr)
		if err == nil && !x.Eval(func(tag string) bool { return holds[tag] || strings.HasPrefix(tag, "go1.") }) {
			out = append(out, fmt.Sprintf("%s (//go:build %s)", t.relative(path), expr))
		}
		return nil
	})
	return out
}

// buildLine is the expression of a Go file's //go:build line, or "".
func buildLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if constraint.IsGoBuild(line) {
			if expr, err := constraint.Parse(line); err == nil {
				return expr.String()
			}
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return ""
}

// requiredModule is the module go.mod requires that provides the package
// at path (the longest module path it lies under), or "".
func requiredModule(mf *modfile.File, path string) string {
	best := ""
	for _, r := range mf.Require {
		if m := r.Mod.Path; (path == m || strings.HasPrefix(path, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

// notAModule is the error for dir (abs, absolute), which holds no go.mod.
// It names where the modules are: the module dir lies in, the modules a
// go.work in dir uses, or the modules in dir's subdirectories (a few
// levels down), each as a path to give instead.
func notAModule(dir, abs string) error {
	const msg = "%s is not a Go module (no go.mod); %s"
	shown := func(p string) string { return filepath.Join(dir, p) }
	if data, err := os.ReadFile(filepath.Join(abs, "go.work")); err == nil {
		if wf, err := modfile.ParseWork("go.work", data, nil); err == nil && len(wf.Use) > 0 {
			var used []string
			for _, u := range wf.Use {
				used = append(used, shown(u.Path))
			}
			return fail.Load(msg, dir, "it is a go.work workspace: give one of the modules it uses: "+strings.Join(used, ", "))
		}
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(abs, d)
			if err != nil {
				break
			}
			return fail.Load(msg, dir, "it is inside the module at "+shown(rel)+": give that directory")
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if found := modulesBelow(abs, 3, 5); len(found) > 0 {
		for i, f := range found {
			found[i] = shown(f)
		}
		return fail.Load(msg, dir, "give one of the modules below it: "+strings.Join(found, ", "))
	}
	return fail.Load(msg, dir, "give the module's root directory")
}

// modulesBelow lists up to most directories under root, depth levels down
// at most, that hold a go.mod, relative to root (hidden directories,
// vendor and testdata are not searched).
func modulesBelow(root string, depth, most int) []string {
	var found []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable directory is not searched
		case !d.IsDir():
			return nil
		case len(found) == most:
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" || strings.Count(rel, string(filepath.Separator)) >= depth {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			found = append(found, rel)
			return filepath.SkipDir
		}
		return nil
	})
	return found
}

// gitRoot returns the closest ancestor of dir (dir included) holding .git,
// or dir when there is none.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// ListError is the go command's refusal to list a tree's packages (an
// inconsistent vendor directory, a go.mod it cannot use): what it wrote on
// stderr, whose first line says what is wrong and whose following lines
// name the modules and the fix.
type ListError struct {
	// Dir is the tree as it was given.
	Dir string
	// Stderr is the go command's message, without the exit status.
	Stderr string
	// Err is the go command's failure.
	Err error
}

// Error is the first line of the go command's message, then the others
// indented under it.
func (e *ListError) Error() string {
	first, rest, more := strings.Cut(e.Stderr, "\n")
	msg := fmt.Sprintf("%s: go list failed: %s", e.Dir, first)
	if !more {
		return msg
	}
	lines := []string{msg}
	for _, line := range strings.Split(rest, "\n") {
		line = strings.TrimRight(line, " \t")
		if line != "" && !strings.HasPrefix(line, "\t") {
			line = "\t" + line
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the go command's failure.
func (e *ListError) Unwrap() error { return e.Err }
