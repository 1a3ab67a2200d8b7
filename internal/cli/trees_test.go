package cli

import (
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// snapshot is every file of the tree at dir, by path relative to it: a
// file's bytes, or where a symlink leads (not followed).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(path)
			files[rel] = "symlink to " + to
			return err
		}
		data, err := os.ReadFile(path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestTreeLoadsWithWarnings breaks a copy of a client-go controller the ways
// trees in the wild are broken (cases 6, 8a, 8b and 9a of the hostile-input
// trial, docs/cases.md) and checks that locate still finds the controller
// (exit 0, its table on stdout), says what is wrong in warnings on stderr,
// one line each and relative to the tree, and changes no file of the tree
// (go.mod and go.sum included): an import cycle; a go.sum missing the lines
// of a module go.mod requires; a new require, imported, that go.sum lacks;
// symlinks out of the tree, loaded as the go command loads them (a linked
// file is part of its package, a linked directory is not walked by ./...).
// The module proxy is off: nothing is downloaded.
func TestTreeLoadsWithWarnings(t *testing.T) {
	moduleCacheHolds(t, "clientgo-plain")
	t.Setenv("GOPROXY", "off")
	const module = "example.com/fixtures/clientgo-plain"
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, tree string)
		warns []string // the warnings hold these, in this order; nil: no warning
	}{
		{"import cycle", func(t *testing.T, tree string) {
			writeText(t, filepath.Join(tree, "pkg", "a", "a.go"), "package a\n\nimport _ \""+module+"/pkg/b\"\n")
			writeText(t, filepath.Join(tree, "pkg", "b", "b.go"), "package b\n\nimport _ \""+module+"/pkg/a\"\n")
		}, []string{
			"warning: clientgo-plain: import cycle not allowed: import stack: [" + module + "/pkg/a " + module + "/pkg/b " + module + "/pkg/a]",
			"pkg/a/a.go:3:10: could not import " + module + "/pkg/b (import cycle: ",
		}},
		{"go.sum missing a required module", func(t *testing.T, tree string) {
			sum := filepath.Join(tree, "go.sum")
			data, err := os.ReadFile(sum)
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, line := range strings.SplitAfter(string(data), "\n") {
				if !strings.HasPrefix(line, "k8s.io/klog/v2 ") {
					kept = append(kept, line)
				}
			}
			writeText(t, sum, strings.Join(kept, ""))
		}, []string{
			"k8s.io/klog/v2: missing go.sum entry for module providing package k8s.io/klog/v2 (imported by " + module + "); ",
			"; run `go mod download k8s.io/klog/v2` in the module to record its go.sum lines",
			"not analysed, because of type errors: ",
		}},
		{"new require not in go.sum", requireUnsummed("func wrapped() error { return errors.New(\"wrapped\") }"),
			unsummedWarnings(module, "wrapped")},
		{"new require not in go.sum, in a package-level initialiser", requireUnsummed("var errWrapped = errors.New(\"wrapped\")"),
			unsummedWarnings(module, "var errWrapped")},
		{"symlinks out of the tree", func(t *testing.T, tree string) {
			outside := t.TempDir()
			writeText(t, filepath.Join(outside, "linked.go"), "package main\n\nfunc linkedIn() string { return \"from outside the tree\" }\n")
			writeText(t, filepath.Join(outside, "helpers", "helpers.go"), "package helpers\n\nvar notAnInt int = \"a type error, never loaded\"\n")
			for _, name := range []string{"linked.go", "helpers"} {
				if err := os.Symlink(filepath.Join(outside, name), filepath.Join(tree, name)); err != nil {
					t.Fatal(err)
				}
			}
			writeText(t, filepath.Join(tree, "uses.go"), "package main\n\nvar fromOutside = linkedIn()\n")
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyFixture(t, "clientgo-plain")
			tree := filepath.Join(dir, "clientgo-plain")
			tc.spoil(t, tree)
			before := snapshot(t, tree)
			t.Chdir(dir)
			code, out, errs := run(t, "locate", "clientgo-plain")
			if code != 0 || !strings.HasPrefix(out, "Controller, kind ") {
				t.Fatalf("exit %d, stdout %q…, stderr %q; want exit 0 and the controller's table", code, firstLine(out), errs)
			}
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if errs == "" {
				lines = nil
			}
			next := 0
			for _, line := range lines {
				if !strings.HasPrefix(line, "ctrlcmp: warning: clientgo-plain: ") || strings.Contains(line, dir) {
					t.Errorf("stderr line %q: want a warning about clientgo-plain, relative to it", line)
				}
				for next < len(tc.warns) && strings.Contains(line, tc.warns[next]) {
					next++
				}
			}
			if next < len(tc.warns) || (tc.warns == nil && errs != "") {
				t.Errorf("stderr:\n%s\nwant warnings holding, in order, %q", errs, tc.warns)
			}
			if after := snapshot(t, tree); !maps.Equal(after, before) {
				t.Error("locate changed the tree")
			}
		})
	}
}

// replaceIn replaces old, which must occur, with new in the file at path.
func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%q not found in %s", old, path)
	}
	writeText(t, path, strings.Replace(string(data), old, new, 1))
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestHostileTreeRunsNothing (case 11 of the hostile-input trial; the
// second trial's review) reads a tree that tries to have code run: a cgo
// file whose preamble asks pkg-config for flags, //go:generate lines, a
// go.mod asking for a newer toolchain, and a dependency outside the tree
// (a local replace) that is cgo too, asks pkg-config and is in no build
// cache, with CGO_ENABLED=1 and GOTOOLCHAIN=auto in the environment. Fake
// pkg-config, touch and git come first on $PATH, each of which would leave
// a mark, and the C compiler is in turn a fake one first on $PATH, the
// system's (when one is installed: the loader then asks the go command for
// the export data the user's cgo build made, which must build nothing), and
// none at all. locate, stages and table read it as usual (exit 0, no
// warning), no fake is ever run and nothing is generated.
func TestHostileTreeRunsNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake tools are shell scripts")
	}
	moduleCacheHolds(t, "clientgo-plain")
	systemCC := ""
	for _, cc := range []string{"/usr/bin/gcc", "/usr/bin/cc"} {
		if _, err := os.Stat(cc); err == nil {
			systemCC = cc
			break
		}
	}
	for _, tc := range []struct {
		name  string
		fakes []string
		cc    string // $CC; "" leaves it unset
	}{
		{"fake C compilers first on PATH", []string{"gcc", "cc", "pkg-config", "touch", "git"}, ""},
		{"the system's C compiler", []string{"pkg-config", "touch", "git"}, systemCC},
		{"no C compiler", []string{"pkg-config", "touch", "git"}, "/nonexistent/cc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "the system's C compiler" && systemCC == "" {
				t.Skip("no C compiler installed in /usr/bin")
			}
			bin, marks := t.TempDir(), t.TempDir()
			dir := copyFixture(t, "clientgo-plain")
			hostileTree(t, dir, marks)
			for _, tool := range tc.fakes {
				script := "#!/bin/sh\n: > '" + filepath.Join(marks, tool) + "'\nexit 1\n"
				if err := os.WriteFile(filepath.Join(bin, tool), []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			if tc.cc != "" {
				t.Setenv("CC", tc.cc)
			}
			t.Setenv("CGO_ENABLED", "1")
			t.Setenv("GOTOOLCHAIN", "auto")
			t.Setenv("GOPROXY", "off")
			if found, err := exec.LookPath("pkg-config"); err != nil || found != filepath.Join(bin, "pkg-config") {
				t.Fatalf("pkg-config is %s (%v), want the fake in %s", found, err, bin)
			}
			before := snapshot(t, dir)
			t.Chdir(dir)

			for _, args := range [][]string{
				{"locate", "clientgo-plain"},
				{"stages", "clientgo-plain"},
				{"table", "--theirs-dir", "clientgo-plain", "--ours", "clientgo-plain"},
			} {
				code, out, errs := run(t, args...)
				if code != 0 || out == "" || errs != "" {
					t.Errorf("%s: exit %d, stderr %q; want exit 0, the output, no warning", args[0], code, errs)
				}
			}
			if ran, _ := os.ReadDir(marks); len(ran) > 0 {
				t.Errorf("a fake tool ran: %s left its mark", ran[0].Name())
			}
			if after := snapshot(t, dir); !maps.Equal(after, before) {
				t.Errorf("the tree changed (something was generated): %d files before, %d after", len(before), len(after))
			}
		})
	}
}

// hostileTree makes the copy of clientgo-plain in dir hostile (see
// TestHostileTreeRunsNothing). Its cgo dependency names
// marks in a comment, so that no build cache holds it.
func hostileTree(t *testing.T, dir, marks string) {
	t.Helper()
	tree := filepath.Join(dir, "clientgo-plain")
	cgoFile := `

//go:generate touch GENERATED

/*
#cgo pkg-config: hostile
#include <stdlib.h>
static int answer(void) { return 42; }
*/
import "C"

`
	writeText(t, filepath.Join(tree, "native.go"), "package main"+cgoFile+"func nativeAnswer() int { return int(C.answer()) }\n")
	writeText(t, filepath.Join(tree, "gen.go"), "package main\n\n//go:generate touch GENERATED\n//go:generate sh -c \"touch GENERATED\"\n//go:generate git init\n")
	writeText(t, filepath.Join(tree, "dep.go"), "package main\n\nimport \"example.com/native\"\n\nvar _ = native.Answer\n")
	replaceIn(t, filepath.Join(tree, "go.mod"), "\ngo 1.26.0\n", "\ngo 1.26.0\n\ntoolchain go1.99.0\n\nrequire example.com/native v0.0.0\n\nreplace example.com/native => ../native\n")
	native := filepath.Join(dir, "native")
	writeText(t, filepath.Join(native, "go.mod"), "module example.com/native\n\ngo 1.26.0\n")
	writeText(t, filepath.Join(native, "native.go"), "// Package native is built only with cgo ("+marks+").\npackage native"+cgoFile+"// Answer is C's answer.\nfunc Answer() int { return int(C.answer()) }\n")
	writeText(t, filepath.Join(native, "nocgo.go"), "//go:build !cgo\n\npackage native\n\n// Answer is the answer without cgo.\nfunc Answer() int { return 42 }\n")
}

// TestTheirsOutsideUsersWorkspace: the user's GOWORK names the workspace
// of their own module, which theirs is not part of (a go.work that uses
// ours alone, in the directory above both). table loads theirs on its own
// and ours in the workspace: both load cleanly, with no warning.
func TestTheirsOutsideUsersWorkspace(t *testing.T) {
	moduleCacheHolds(t, "clientgo-plain")
	t.Setenv("GOPROXY", "off")
	work := copyFixture(t, "clientgo-plain")
	if err := os.Rename(filepath.Join(work, "clientgo-plain"), filepath.Join(work, "ours")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(work, "theirs"), os.DirFS(filepath.Join(fixturesDir, "clientgo-plain"))); err != nil {
		t.Fatal(err)
	}
	gowork := filepath.Join(work, "go.work")
	writeText(t, gowork, "go 1.26.0\n\nuse ./ours\n")
	t.Setenv("GOWORK", gowork)
	code, out, errs := run(t, "table", "--no-cache", "--theirs-dir", filepath.Join(work, "theirs"), "--ours", filepath.Join(work, "ours"), "--format", "text")
	if code != 0 || out == "" || errs != "" {
		t.Errorf("exit %d, stderr %q; want exit 0, the table, no warning", code, errs)
	}
}

// TestNoGoCommand (case 40 of the second trial): with no go command on
// $PATH, loading a tree fails with exit 3 and one line naming the tree,
// the missing go command and where to get it.
func TestNoGoCommand(t *testing.T) {
	tree := filepath.Join(copyFixture(t, "clientgo-plain"), "clientgo-plain")
	t.Setenv("PATH", t.TempDir())
	code, out, errs := run(t, "locate", "--no-cache", tree)
	if code != fail.CodeLoad || out != "" {
		t.Errorf("exit %d, stdout %q; want exit %d and nothing on stdout", code, out, fail.CodeLoad)
	}
	wantOneLine(t, errs, tree+": go list failed: the go command is not on $PATH, and ctrlcmp runs it to list packages and download modules; install Go (https://go.dev/dl/) or put its bin directory on $PATH")
}

// TestUsageErrorsAtRun (case 35 of the hostile-input trial; the rest of its
// usage errors are in TestBadInput) checks the mistakes found only once the
// command runs: check of a journal that does not exist, stages of a
// controller-runtime tree, and stages --patch or --run of a generated
// reconciler, each exit 2 with one line naming the input.
func TestUsageErrorsAtRun(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.md")
	kubebuilder := filepath.Join(fixturesDir, "kubebuilder")
	knative := filepath.Join(fixturesDir, "knative")
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"check a missing journal", []string{"check", missing}, "journal " + missing + " does not exist; give the path of a markdown file"},
		{"stages of a controller-runtime tree", []string{"stages", kubebuilder},
			kubebuilder + ": GadgetReconciler is a controller-runtime controller; the five stages are those of client-go controllers"},
		{"stages --patch of a generated reconciler", []string{"stages", knative, "--patch"},
			knative + ": Reconciler is a generated reconciler, whose workqueue and worker are in a dependency"},
		{"stages --run of a generated reconciler", []string{"stages", knative, "--run"},
			": Reconciler is a generated reconciler; --run does not run this style"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != fail.CodeUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and nothing on stdout", code, out, fail.CodeUsage)
			}
			wantOneLine(t, errs, tc.says)
		})
	}
}

// requireUnsummed spoils a tree with a require go.sum lacks, its package
// used by decl in a new file.
func requireUnsummed(decl string) func(t *testing.T, tree string) {
	return func(t *testing.T, tree string) {
		replaceIn(t, filepath.Join(tree, "go.mod"), "\tk8s.io/klog/v2 v2.140.0\n", "\tk8s.io/klog/v2 v2.140.0\n\tgithub.com/pkg/errors v0.9.1\n")
		writeText(t, filepath.Join(tree, "wrap.go"), "package main\n\nimport \"github.com/pkg/errors\"\n\n"+decl+"\n")
	}
}

// unsummedWarnings are the warnings of requireUnsummed's tree: the go.sum
// gap with its fix, the failed import, and what was left out.
func unsummedWarnings(module, leftOut string) []string {
	return []string{
		"github.com/pkg/errors: missing go.sum entry for module providing package github.com/pkg/errors (imported by " + module + "); ",
		"; run `go mod download github.com/pkg/errors` in the module to record its go.sum lines",
		"wrap.go:3:8: could not import github.com/pkg/errors",
		module + ": not analysed, because of type errors: " + leftOut,
	}
}
