// Package liverun runs a client-go controller for `stages --run`: it copies
// the controller's tree to a temporary directory (the user's tree is never
// written), adds the STAGE log lines to the copy, builds it, and runs it
// against a cluster while a scenario of steps (create, change, delete an
// object) plays out, keeping its log for the stages reader.
package liverun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/cluster"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/proc"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

// Prepared is a patched and built copy of a controller's tree.
type Prepared struct {
	Work       string // the temporary directory; Remove deletes it
	Dir        string // the patched copy of the tree
	Binary     string // the built controller
	Controller locate.Controller
	Skipped    []string // stage sites the patch left out, and why

	progress func(string)
}

// Prepare copies the tree at dir, patches the copy's controller (of kind,
// or the tree's only one) with the STAGE lines and builds it.
func Prepare(ctx context.Context, dir, kind string, progress func(string)) (p *Prepared, err error) {
	work, err := os.MkdirTemp("", "ctrlcmp-run-")
	if err != nil {
		return nil, err
	}
	p = &Prepared{Work: work, Dir: filepath.Join(work, "src"), progress: progress}
	defer func() {
		if err != nil {
			p.Remove()
			p = nil
		}
	}()
	if err := copyTree(dir, p.Dir); err != nil {
		return p, fmt.Errorf("copy %s: %w", dir, err)
	}
	t, err := inspect.Tree(ctx, p.Dir, "", "", nil)
	if err != nil {
		return p, err
	}
	if p.Controller, err = inspect.Select(t, kind, "--kind"); err != nil {
		return p, err
	}
	if p.Controller.Style == locate.StyleGenerated {
		return p, fail.Usage("%s: %s is a generated reconciler; --run does not run this style: its main starts through the dependency's injection (knative.dev/pkg's sharedmain), which needs the project's webhooks, config maps and informer injection in the cluster; `ctrlcmp stages %s` lists its stage sites without running it", dir, p.Controller.Name, dir)
	}
	if p.Controller.Style != locate.StyleClientGo {
		return p, fmt.Errorf("%s: %s is a %s controller; --run runs client-go controllers, whose five stages ctrlcmp patches in", dir, p.Controller.Name, p.Controller.Style)
	}
	ins, err := stages.Instrument(p.Dir, p.Controller.Anchors)
	if err != nil {
		return p, err
	}
	p.Skipped = ins.Skipped
	changes, err := stages.Patch(p.Dir, ins)
	if err != nil {
		return p, err
	}
	if err := stages.Write(changes); err != nil {
		return p, err
	}
	progress(fmt.Sprintf("patched %d files of a copy of %s; building it", len(changes), dir))
	pkg, err := mainPackage(ctx, p.Dir)
	if err != nil {
		return p, err
	}
	p.Binary = filepath.Join(work, "controller")
	if _, errOut, err := proc.Run(ctx.Done(), "go build", "go", append(tagsFlag(ctx, "build", "-o", p.Binary), pkg), p.Dir, nil); err != nil {
		if ctx.Err() != nil {
			return p, ctx.Err()
		}
		return p, fmt.Errorf("build the patched copy of %s: %w\n%s", dir, err, lastLines(errOut, 20))
	}
	return p, nil
}

// Remove deletes the copy and its binary.
func (p *Prepared) Remove() { os.RemoveAll(p.Work) }

// mainPackage is the tree's command: the module root when it is a main
// package, else the only main package in it.
func mainPackage(ctx context.Context, dir string) (string, error) {
	out, errOut, err := proc.Run(ctx.Done(), "go list", "go", append(tagsFlag(ctx, "list", "-f", "{{if eq .Name \"main\"}}{{.Dir}}{{end}}"), "./..."), dir, nil)
	if err != nil {
		return "", fmt.Errorf("list the packages of the copy: %w\n%s", err, lastLines(errOut, 20))
	}
	var mains []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l == "" {
			continue
		}
		if l == dir {
			return ".", nil
		}
		rel, _ := filepath.Rel(dir, l)
		mains = append(mains, "./"+filepath.ToSlash(rel))
	}
	switch len(mains) {
	case 0:
		return "", errors.New("the tree has no main package to run")
	case 1:
		return mains[0], nil
	}
	return "", fmt.Errorf("the tree has %d main packages (%s) and no main package at its root; give the directory of the controller's own module", len(mains), strings.Join(mains, ", "))
}

// tagsFlag is the go command's args with -tags added when ctx carries
// build tags (load.WithTags), so that the copy is built as it was loaded.
func tagsFlag(ctx context.Context, args ...string) []string {
	if tags := load.Tags(ctx); len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	return args
}

// copyTree copies the regular files and symlinks of src to dst, leaving
// out .git.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Step is one action of a scenario, After its start.
type Step struct {
	After time.Duration
	Name  string // what it does, for progress ("create ConfigMap default/x")
	Do    func(ctx context.Context, c *cluster.Client) error
}

// Run is the patched controller running.
type Run struct {
	Process *proc.Process
	LogFile string
}

// stopGrace is how long the controller has to exit after SIGTERM.
const stopGrace = 10 * time.Second

// Start starts the patched controller against the cluster of kubeconfig
// and no other: KUBECONFIG always (and only that file), -kubeconfig when
// its command defines that flag, and none of the variables by which a
// controller in a pod finds the cluster it runs in (clusterEnv). Its
// output (klog on stderr) goes to a log file in the work directory.
func (p *Prepared) Start(ctx context.Context, kubeconfig string) (*Run, error) {
	args, err := p.kubeconfigArgs(ctx, kubeconfig)
	if err != nil {
		return nil, err
	}
	if args == nil && p.progress != nil {
		p.progress(fmt.Sprintf("the controller's command lists no -kubeconfig flag in its -h; it gets the cluster from KUBECONFIG=%s only (the in-cluster variables KUBERNETES_SERVICE_HOST/PORT are removed from its environment)", kubeconfig))
	}
	logFile := filepath.Join(p.Work, "controller.log")
	f, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pr, err := proc.Start("the patched controller", p.Binary, args, p.Dir, clusterEnv(kubeconfig), f, f)
	if err != nil {
		return nil, err
	}
	return &Run{Process: pr, LogFile: logFile}, nil
}

// kubeconfigArgs is --kubeconfig=PATH when the command's help lists a
// kubeconfig flag.
func (p *Prepared) kubeconfigArgs(ctx context.Context, kubeconfig string) ([]string, error) {
	hctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, errOut, err := proc.Run(hctx.Done(), "the controller's help", p.Binary, []string{"-h"}, p.Dir, clusterEnv(os.DevNull))
	if errors.Is(err, proc.ErrCancelled) && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out = append(out, errOut...)
	if bytes.Contains(out, []byte("-kubeconfig ")) || bytes.Contains(out, []byte("-kubeconfig=")) {
		return []string{"--kubeconfig=" + kubeconfig}, nil // the go flag package takes -- too; pflag only takes --
	}
	return nil, nil
}

// clusterEnv are the changes (proc.Environ) to ctrlcmp's environment
// that point a controller at kubeconfig's cluster and at no other:
// KUBECONFIG is that file alone, and every KUBERNETES_* variable is
// removed. A pod has KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT
// (and the other service variables of the kubernetes Service) set, and a
// client-go controller that finds no kubeconfig flag or file uses them to
// reach the cluster it runs in: the user's real one, not the throwaway.
func clusterEnv(kubeconfig string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "KUBERNETES_") {
			env = append(env, name)
		}
	}
	return append(env, "KUBECONFIG="+kubeconfig)
}

// Stop stops the controller, returns its log as it wrote it, and ends the
// log file with a line of ctrlcmp's own. That line has klog's text header
// with the time the controller stopped: a reader of the file sees how long
// it ran on, quiet, after its own last line (the file's modification time
// does not say: it moves with any late write).
func (r *Run) Stop() ([]byte, error) {
	r.Process.Stop(stopGrace)
	data, err := os.ReadFile(r.LogFile)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(r.LogFile, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	_, err = fmt.Fprintf(f, "I%s %7d ctrlcmp:0] \"the controller was stopped\"\n", time.Now().Format("0102 15:04:05.000000"), os.Getpid())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return data, err
}

// Play runs the steps in order, each at its time after now, and then waits
// until end; it stops early with an error when a step fails, the
// controller exits or ctx ends.
func (r *Run) Play(ctx context.Context, c *cluster.Client, steps []Step, end time.Duration, progress func(string)) error {
	start := time.Now()
	wait := func(d time.Duration) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-r.Process.Exited():
			data, _ := os.ReadFile(r.LogFile)
			return fmt.Errorf("the controller exited early (%v); the end of its log:\n%s", r.Process.Err(), lastLines(data, 15))
		case <-time.After(time.Until(start.Add(d))):
			return nil
		}
	}
	for _, s := range steps {
		if err := wait(s.After); err != nil {
			return err
		}
		progress(fmt.Sprintf("%5.1fs  %s", time.Since(start).Seconds(), s.Name))
		if err := s.Do(ctx, c); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	return wait(end)
}

func lastLines(data []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
