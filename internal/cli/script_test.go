package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/journal"
)

// TestMain makes the test binary ctrlcmp itself when the scripts run it.
func TestMain(m *testing.M) {
	testscript.Main(ownCache{m}, map[string]func(){
		"ctrlcmp": func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// ownCache runs the tests with a cache directory of their own, removed
// afterwards, so that they neither read nor litter the user's.
type ownCache struct{ m *testing.M }

func (o ownCache) Run() int {
	dir, err := os.MkdirTemp("", "ctrlcmp-cli-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv(fetch.CacheEnv, dir)
	return o.m.Run()
}

// TestScript runs the scripts under testdata/script: whole workflows
// (write the table into a journal, move code, check, fix) over copies of
// the fixtures, in a git repository of their own.
func TestScript(t *testing.T) {
	// A script costs a few seconds of CPU a ctrlcmp run. Under -short
	// (make test) journal-checkout, journal-label and journal-pins, whose
	// steps the other scripts share most of, skip with "[short] skip
	// 'heavy: make test-heavy runs it'"; make test-heavy runs every script.
	goEnv := goEnvironment(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// testscript clears the environment: the go command that
			// loads the trees needs its module cache and settings back.
			// HOME stays in the work directory, so git reads no user
			// configuration.
			for _, kv := range goEnv {
				env.Setenv(kv[0], kv[1])
			}
			home := filepath.Join(env.WorkDir, ".home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			for _, who := range []string{"AUTHOR", "COMMITTER"} {
				env.Setenv("GIT_"+who+"_NAME", "ctrlcmp test")
				env.Setenv("GIT_"+who+"_EMAIL", "test@ctrlcmp.invalid")
			}
			return os.MkdirAll(home, 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fixture":  cmdFixture,
			"concat":   cmdConcat,
			"prose":    cmdProse,
			"gitserve": cmdGitServe,
		},
	})
}

// goEnvironment is the go command's settings as this test sees them, for
// the scripts to load trees with.
func goEnvironment(t *testing.T) [][2]string {
	t.Helper()
	names := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOINSECURE"}
	out, err := exec.Command("go", append([]string{"env", "-json"}, names...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var values map[string]string
	if err := json.Unmarshal(out, &values); err != nil {
		t.Fatalf("go env: %v", err)
	}
	var env [][2]string
	for _, name := range names {
		if v := values[name]; v != "" {
			env = append(env, [2]string{name, v})
		}
	}
	return env
}

// cmdFixture copies a fixture tree of testdata/src into the script's work
// directory: fixture NAME DIR.
func cmdFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fixture NAME DIR")
	}
	ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(filepath.Join(fixturesDir, args[0]))))
}

// cmdConcat writes the files IN... one after the other into OUT (which may
// be one of them): concat OUT IN...
func cmdConcat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: concat OUT IN...")
	}
	var data []byte
	for _, in := range args[1:] {
		data = append(data, ts.ReadFile(in)...)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

// cmdProse prints a journal without its ctrlcmp fences: the bytes that are
// the user's and must never change. prose FILE
func cmdProse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: prose FILE")
	}
	src := []byte(ts.ReadFile(args[0]))
	last := 0
	for _, f := range journal.Parse(src).Fences {
		ts.Stdout().Write(src[last:f.Start])
		last = f.End
	}
	ts.Stdout().Write(src[last:])
}
