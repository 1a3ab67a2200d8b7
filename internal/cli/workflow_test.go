package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestWorkflowDoc keeps the GitHub Actions workflow of docs/journal.md and
// the script that runs it (testdata/script/ci-workflow.txtar) in step, so
// that the page cannot drift from what is tested: each shell line of the
// workflow is in the script, a ctrlcmp line as `exec sh -c 'LINE'` (which
// runs it), any other as the comment `# - run: LINE` (the go install line:
// the test's binary is ctrlcmp). The job has a timeout, and its cache keeps
// both caches check fills.
func TestWorkflowDoc(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "journal.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "## In CI (GitHub Actions)\n")
	_, block, ok2 := strings.Cut(section, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/journal.md has no ```yaml block under \"## In CI (GitHub Actions)\"")
	}
	var workflow struct {
		Jobs map[string]struct {
			TimeoutMinutes int `yaml:"timeout-minutes"`
			Steps          []struct {
				Uses string
				Run  string
				With map[string]string
			}
		}
	}
	if err := yaml.Unmarshal([]byte(block), &workflow); err != nil {
		t.Fatalf("the workflow in docs/journal.md: %v", err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "script", "ci-workflow.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(script), "\n")
	ran := 0
	for name, job := range workflow.Jobs {
		if job.TimeoutMinutes <= 0 {
			t.Errorf("job %s has no timeout-minutes", name)
		}
		for _, step := range job.Steps {
			if strings.HasPrefix(step.Uses, "actions/cache@") {
				for _, p := range []string{"~/.cache/ctrlcmp", "~/go/pkg/mod"} {
					if !slices.Contains(strings.Fields(step.With["path"]), p) {
						t.Errorf("job %s: the cache step does not keep %s", name, p)
					}
				}
			}
			run := strings.TrimSpace(step.Run)
			if run == "" {
				continue
			}
			want := "# - run: " + run
			if strings.HasPrefix(run, "ctrlcmp ") {
				want = "exec sh -c '" + run + "'"
				ran++
			}
			if !slices.Contains(lines, want) {
				t.Errorf("ci-workflow.txtar lacks the line %q, for the workflow's `run: %s`", want, run)
			}
		}
	}
	if ran == 0 {
		t.Error("the workflow runs no ctrlcmp command")
	}
}
