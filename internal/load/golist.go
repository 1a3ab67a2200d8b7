package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// listed is one package as `go list -json` describes it: the fields the
// loader reads.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	// IgnoredGoFiles are the files build constraints leave out.
	IgnoredGoFiles []string
	Imports        []string
	ImportMap      map[string]string
	Module         *packages.Module
	DepOnly        bool
	Standard       bool
	Error          *struct {
		Pos         string
		Err         string
		ImportStack []string
	}
}

// listFields are the fields asked of go list (-json=…), which spares it
// computing the others.
const listFields = "ImportPath,Name,Dir,GoFiles,IgnoredGoFiles,Imports,ImportMap,Module,DepOnly,Standard,Error"

// goList lists the packages matching patterns in dir and every package
// they depend on (`go list -e -deps`), dependencies first. A go command
// that refuses the tree is a ListError.
func goList(ctx context.Context, dir, shown string, patterns []string) ([]*listed, error) {
	args := append(append([]string{"list", "-e", "-deps", "-json=" + listFields}, buildFlags(ctx)...), "--")
	out, err := runGo(ctx, dir, append(args, patterns...))
	if err != nil {
		return nil, listError(ctx, shown, err)
	}
	var pkgs []*listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listed)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, &ListError{Dir: shown, Stderr: "reading go list's output: " + err.Error(), Err: err}
		}
		if p.ImportPath == "" {
			continue // go list promises a path to every package, even an erroneous one
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// exportFiles asks the go command for the export data file of each of
// paths (`go list -e -export`), from the build cache. What the cache lacks
// the go command compiles (it never runs it); with cachedOnly, the probe
// builds nothing: -n makes the go command print the commands of what the
// cache lacks instead of running them (no compiler, no cgo, no
// pkg-config), and the first such line ends the probe, so that a warm
// cache answers once the files are hashed and a cold one costs no more
// than that. ok is false when it stopped, failed, or left a package
// without export data. What it compiled stays in the build cache.
//
// With userCgo, the probe asks for the export data the user's own go
// command builds (cgo on, as `go vet` has it wherever a C compiler is
// installed) and is always cachedOnly: it reads what the user compiled.
// The only program the go command then runs is the C compiler, to
// identify it (`CC -### -x c -c -`, nothing of the tree's), which is why
// userBuildsWithCgo asks for a system one.
func exportFiles(ctx context.Context, dir string, paths []string, cachedOnly, userCgo bool) (files map[string]string, ok bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if userCgo {
		cachedOnly = true
	}
	show := "-x"
	if cachedOnly {
		show = "-n" // print, never run, what the cache lacks
	}
	args := append(append([]string{"list", "-e", "-export", show, "-json=ImportPath,Export"}, buildFlags(ctx)...), "--")
	args = append(args, paths...)
	env := untrustedEnv(ctx)
	if userCgo {
		env = withUserCgo(env)
	}
	cmd := goCommand(ctx, dir, env, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	building := false
	cmd.Stderr = lineWriter(func(line string) {
		if cachedOnly && !building && !strings.HasPrefix(line, "WORK=") {
			building = true
			cancel()
		}
	})
	if err := cmd.Run(); err != nil || building {
		return nil, false
	}
	files = map[string]string{}
	dec := json.NewDecoder(&stdout)
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, false
		}
		if p.Export == "" && p.ImportPath != "unsafe" {
			return nil, false
		}
		files[p.ImportPath] = p.Export
	}
	return files, true
}

// lineWriter hands each line written to it to a function.
type lineWriter func(line string)

func (f lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		f(line)
	}
	return len(p), nil
}

// goError is a go command that failed: its stderr, and how it ended.
type goError struct {
	stderr string
	err    error
}

func (e *goError) Error() string {
	if strings.TrimSpace(e.stderr) == "" {
		return e.err.Error()
	}
	return e.err.Error() + ": " + e.stderr
}

// goMissing says that the go command could not be started because it is
// not on $PATH, and how to fix that.
const goMissing = "the go command is not on $PATH, and ctrlcmp runs it to list packages and download modules; install Go (https://go.dev/dl/) or put its bin directory on $PATH"

func (e *goError) Unwrap() error { return e.err }

// waitDelay bounds how long, once the go command has exited or been
// cancelled, its reaping waits for its output pipes to close: a process it
// started that outlived it would otherwise hold them, and the load with
// them.
const waitDelay = 5 * time.Second

// goCommand is the go command with args in dir with env: in a process
// group of its own that cancelling ctx kills whole (ownGroup), with the
// kernel's backstop should ctrlcmp itself be killed (on Linux), and a
// bounded wait for its output once it has ended (waitDelay).
func goCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	return cmd
}

// runGo runs the go command in dir with the untrusted tree's environment
// and returns its standard output.
func runGo(ctx context.Context, dir string, args []string) ([]byte, error) {
	cmd := goCommand(ctx, dir, untrustedEnv(ctx), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &goError{stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

// listError is the error of a go list that failed: the context's own when
// it was cancelled, else a ListError carrying the go command's message.
func listError(ctx context.Context, shown string, err error) error {
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return err
	}
	msg := err.Error()
	if errors.Is(err, exec.ErrNotFound) {
		msg = goMissing
	}
	var ge *goError
	if errors.As(err, &ge) && strings.TrimSpace(ge.stderr) != "" {
		msg = ge.stderr
	}
	msg = strings.TrimRight(msg, " \t\n")
	if m := newerGo.FindStringSubmatch(msg); m != nil {
		// The go command's own fix would fetch the toolchain the tree
		// names, which ctrlcmp never lets an untrusted tree do: the fix
		// goes on the refusal's line.
		msg = strings.Replace(msg, m[0], m[0]+fmt.Sprintf(": the tree needs Go %s or newer: ctrlcmp never lets a go.mod download a toolchain; install Go %s or newer and put its go command first on PATH", m[1], m[1]), 1)
	}
	return &ListError{Dir: shown, Stderr: msg, Err: err}
}

// newerGo matches the go command's refusal of a go.mod that asks for a
// newer Go than the one running, when it may not fetch a toolchain.
var newerGo = regexp.MustCompile(`requires go >= (\S+) \(running go \S+; GOTOOLCHAIN=local\)`)

// untrustedEnv is the go command's environment for a tree we do not trust:
// no cgo, no toolchain download, the workspace ctx names (WithWorkspace;
// none when it names none), and no -mod flag from the user's GOFLAGS
// (-mod=mod would let the go command rewrite the tree's go.mod and go.sum;
// the go command's own choice, the vendor directory when it is consistent
// and go.mod read-only otherwise, is what builds the tree).
func untrustedEnv(ctx context.Context) []string {
	gowork, _ := ctx.Value(workspaceKey{}).(string)
	if gowork == "" {
		gowork = "off"
	}
	env := []string{"CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOWORK=" + gowork}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		switch name {
		case "CGO_ENABLED", "GOTOOLCHAIN", "GOWORK":
			continue
		case "GOFLAGS":
			kv = "GOFLAGS=" + withoutModFlag(value)
		}
		env = append(env, kv)
	}
	return env
}

type workspaceKey struct{}

type tagsKey struct{}

type onItsOwnKey struct{}

// OnItsOwn is ctx for a tree that is not the user's own (theirs: a
// fetched tree, or their checkout): the workspace of the user's
// environment (GOWORK) is not applied to it, and a go.work the go command
// finds above it is honoured only when it lies inside the tree's
// repository (Root), so that the tree is loaded as it builds on its own.
func OnItsOwn(ctx context.Context) context.Context {
	return context.WithValue(ctx, onItsOwnKey{}, true)
}

// onItsOwn reports whether ctx loads a tree on its own (OnItsOwn).
func onItsOwn(ctx context.Context) bool {
	own, _ := ctx.Value(onItsOwnKey{}).(bool)
	return own
}

// withWorkspace is ctx naming the go.work file the go command loads the
// tree with ("" for none).
func withWorkspace(ctx context.Context, gowork string) context.Context {
	return context.WithValue(ctx, workspaceKey{}, gowork)
}

// WithTags is ctx carrying build tags: the loader lists and types the tree
// with them (go list -tags), as a build with them would.
func WithTags(ctx context.Context, tags []string) context.Context {
	return context.WithValue(ctx, tagsKey{}, tags)
}

// Tags are the build tags ctx carries (WithTags).
func Tags(ctx context.Context) []string {
	tags, _ := ctx.Value(tagsKey{}).([]string)
	return tags
}

// buildFlags are the go command's build flags for ctx: -tags when it
// carries tags.
func buildFlags(ctx context.Context) []string {
	if tags := Tags(ctx); len(tags) > 0 {
		return []string{"-tags=" + strings.Join(tags, ",")}
	}
	return nil
}

// workspace is the go.work file the go command uses for the module in dir
// when it is run as the user runs it (GOWORK as the user set it, else the
// nearest go.work above dir that uses the module), or "". For a tree
// loaded on its own (OnItsOwn), the user's GOWORK is not applied, and the
// nearest go.work counts only when it lies inside root, the tree's
// repository. A workspace that uses a directory outside its own (`use
// ../x`, an absolute path) is not honoured, since a fetched tree is not
// trusted to name what else on the machine is read: refused says why.
func workspace(ctx context.Context, dir, root string) (gowork, refused string) {
	gowork = userWorkspace(ctx, dir)
	if gowork == "" || onItsOwn(ctx) && !within(root, gowork) {
		return "", ""
	}
	if outside := usedOutside(gowork); outside != "" {
		shown := gowork // named relative to the tree, as warnings are
		if rel, err := filepath.Rel(dir, gowork); err == nil {
			shown = rel
		}
		return "", fmt.Sprintf("%s uses %s, outside the workspace's own directory; the tree is loaded without it (GOWORK=off), so that nothing outside is read", shown, outside)
	}
	return gowork, ""
}

// usedOutside is the first directory a go.work file uses that is not
// within the file's own directory (or the file itself when it cannot be
// read as a go.work), or "".
func usedOutside(gowork string) string {
	data, err := os.ReadFile(gowork)
	if err != nil {
		return gowork
	}
	wf, err := modfile.ParseWork(gowork, data, nil)
	if err != nil {
		return gowork
	}
	root := filepath.Dir(gowork)
	for _, u := range wf.Use {
		p := u.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if !within(root, p) {
			return u.Path
		}
	}
	return ""
}

// userWorkspace is the go.work file the go command names for dir in the
// user's environment (without its GOWORK for a tree loaded on its own:
// the go command's search from dir), or "".
func userWorkspace(ctx context.Context, dir string) string {
	env := untrustedEnv(ctx)
	for i, kv := range env {
		if strings.HasPrefix(kv, "GOWORK=") {
			env = append(env[:i:i], env[i+1:]...)
			break
		}
	}
	if v, ok := os.LookupEnv("GOWORK"); ok && !onItsOwn(ctx) {
		env = append(env, "GOWORK="+v)
	}
	out, err := goCommand(ctx, dir, env, "env", "GOWORK").Output()
	if gowork := strings.TrimSpace(string(out)); err == nil && gowork != "off" && filepath.IsAbs(gowork) {
		return gowork
	}
	return ""
}

// withUserCgo is env with CGO_ENABLED as the user's environment has it
// (the go command's own default when it does not set it).
func withUserCgo(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CGO_ENABLED=") {
			out = append(out, kv)
		}
	}
	if v, ok := os.LookupEnv("CGO_ENABLED"); ok {
		out = append(out, "CGO_ENABLED="+v)
	}
	return out
}

// userBuildsWithCgo reports whether the user's go command builds with cgo
// (`go env CGO_ENABLED` in their environment, with no toolchain switch)
// with a C compiler installed in a system directory (systemDirs). The go
// command runs the C compiler to identify it (for the build cache's keys
// of the cgo packages) even when every package it needs is cached, so the
// probe of the user's cgo build is made only when that compiler is one
// the system installed, never one that comes first on $PATH from
// elsewhere.
func userBuildsWithCgo(ctx context.Context, dir string) bool {
	env := withUserCgo(untrustedEnv(ctx))
	out, err := goCommand(ctx, dir, env, "env", "CGO_ENABLED", "CC").Output()
	lines := strings.Fields(string(out))
	if err != nil || len(lines) != 2 || lines[0] != "1" {
		return false
	}
	cc, err := exec.LookPath(lines[1])
	if err == nil {
		cc, err = filepath.EvalSymlinks(cc)
	}
	return err == nil && systemDirs[filepath.Dir(cc)]
}

// systemDirs are the directories a system installs its C compiler in.
var systemDirs = map[string]bool{"/usr/bin": true, "/bin": true, "/usr/local/bin": true, "/usr/lib/gcc": true, "/opt/homebrew/bin": true}

// withoutModFlag removes -mod=… from a GOFLAGS value.
func withoutModFlag(goflags string) string {
	var kept []string
	for _, f := range strings.Fields(goflags) {
		if !strings.HasPrefix(strings.TrimLeft(f, "-"), "mod=") {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// files are the absolute paths of a listed package's Go files. A package
// go list could not read (a syntax error in its package clause) names its
// file only in the error's position: that file is its file, as
// go/packages has it, so that the error is the tree's and not a
// dependency's.
func (p *listed) files(dir string) []string {
	var out []string
	for _, f := range p.GoFiles {
		out = append(out, filepath.Join(p.Dir, f))
	}
	if len(out) > 0 || p.Error == nil {
		return out
	}
	if st := p.Error.ImportStack; len(st) > 0 && st[len(st)-1] != p.ImportPath {
		return nil
	}
	for _, s := range []string{p.Error.Pos, p.Error.Err} {
		name := strings.TrimSpace(strings.Split(s, ":")[0])
		if name == "" {
			continue
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if st, err := os.Stat(name); err == nil && !st.IsDir() {
			return []string{name}
		}
	}
	return nil
}

// listErrors are a listed package's errors as go/packages writes them.
func (p *listed) listErrors() []packages.Error {
	if p.Error == nil {
		return nil
	}
	msg := strings.TrimSpace(p.Error.Err)
	if msg == "import cycle not allowed" && len(p.Error.ImportStack) > 0 {
		msg += fmt.Sprintf(": import stack: %v", p.Error.ImportStack)
	}
	return []packages.Error{{Pos: p.Error.Pos, Msg: msg, Kind: packages.ListError}}
}
