// Package wants reads the expectations a fixture under testdata/src states
// in its comments, and checks that each one is a key the tests know.
//
// A Go or YAML line may end in `// want "KEY" "KEY"…` (or `# want` in
// YAML): the line is the site each key expects. `// want-none "KEY"…` says
// the keys (rows, "interval-trace", "drift") have no site. A key may name
// the controller it is about, `Name/KEY`, `pkg.Name/KEY` or, for an
// instance of a generic reconciler, `Name[Arg]/KEY`; one that names
// none is about every controller of the fixture.
//
// As in analysistest, an expectation that nothing reads is an error: Check
// reports every key that is not one of the keys below, and every qualifier
// that names no controller of the fixture, at its file:line.
package wants

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Want is one key of a want or want-none comment.
type Want struct {
	// At is the file:line of the comment, relative to the root given to
	// Scan, with forward slashes.
	At string
	// Ctrl is the controller the key names ("" when it names none), Key
	// the key without it.
	Ctrl, Key string
	// None marks a want-none key.
	None bool
}

var (
	wantRE      = regexp.MustCompile(`(?://|#)\s*want\s+((?:"[^"]+"\s*)+)`)
	noneRE      = regexp.MustCompile(`(?://|#)\s*want-none\s+((?:"[^"]+"\s*)+)`)
	quotedRE    = regexp.MustCompile(`"([^"]+)"`)
	qualifiedRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?(?:\[[A-Za-z0-9_,]+\])?)/(.+)$`)
)

// Scan reads every want and want-none key of the Go and YAML files under
// dir, in file and line order; At is relative to root.
func Scan(dir, root string) ([]Want, error) {
	var out []Want
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".yaml" {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		if abs, err = filepath.EvalSymlinks(abs); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for line := 1; sc.Scan(); line++ {
			out = append(out, Line(fmt.Sprintf("%s:%d", filepath.ToSlash(rel), line), sc.Text())...)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
	return out, err
}

// Line returns the keys of the want comments of one line of text, standing
// at at.
func Line(at, text string) []Want {
	var out []Want
	for _, re := range []*regexp.Regexp{noneRE, wantRE} {
		m := re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		for _, q := range quotedRE.FindAllStringSubmatch(m[1], -1) {
			w := Want{At: at, Key: q[1], None: re == noneRE}
			if m := qualifiedRE.FindStringSubmatch(w.Key); m != nil {
				w.Ctrl, w.Key = m[1], m[2]
			}
			out = append(out, w)
		}
	}
	return out
}

// The keys beyond the rows.
const (
	// IntervalTrace and Drift are the want-none keys of the two answers.
	IntervalTrace = "interval-trace"
	Drift         = "drift"
	// WriteAlways marks a write made on every succeeding pass, HotLoop one
	// flagged as a hot-loop risk, and Partial a site found in a body
	// holding type errors. WriteUnsettled marks a write whose making on
	// every pass is not settled; a fixture that states one states all.
	WriteAlways    = "write-always"
	WriteUnsettled = "write-unsettled"
	HotLoop        = "hot-loop"
	Partial        = "partial"
	// ConditionType and ConditionSet prefix a condition type's name: where
	// it is declared, and where the controller sets it.
	ConditionType = "condition-type:"
	ConditionSet  = "condition-set:"
	// TracePrefix and DriftPrefix prefix a step of the interval trace or
	// of the drift answer.
	TracePrefix = "trace:"
	DriftPrefix = "drift:"
	// WatchHandler is the handler a stage-watch registration names.
	WatchHandler = locate.StageWatch + ":handler"
)

// traceSteps and driftSteps are the steps a trace: or drift: key may name.
var (
	traceSteps = []string{locate.StepReturn, locate.StepJitter, locate.StepJitterBody, locate.StepGetter,
		locate.StepGetterBody, locate.StepSpecField, locate.StepCRDProperty, locate.StepControllerField,
		locate.StepSet, locate.StepConstant, locate.StepComputed}
	driftSteps = []string{locate.StepCompare, locate.StepApply, locate.StepLibraryCompare, locate.StepLibraryApply, locate.StepUnread, locate.StepUnsettled}
)

// IsStage says whether a key is about a client-go stage: a stage id, the
// watch's handler, "stage-write:WHAT" or "re-entry:WHAT".
func IsStage(key string) bool {
	id, _, _ := strings.Cut(key, ":")
	return strings.HasPrefix(id, "stage-") || id == locate.StageReentry
}

// known says whether key is a key the tests read, and if not why.
func known(w Want) (bool, string) {
	if w.None {
		if slices.Contains(locate.Rows, w.Key) || w.Key == IntervalTrace || w.Key == Drift {
			return true, ""
		}
		return false, "want-none takes a row id, " + IntervalTrace + " or " + Drift
	}
	k := w.Key
	switch {
	case slices.Contains(locate.Rows, k), k == WriteAlways, k == WriteUnsettled, k == HotLoop, k == Partial:
		return true, ""
	case strings.HasPrefix(k, ConditionType), strings.HasPrefix(k, ConditionSet):
		_, name, _ := strings.Cut(k, ":")
		return name != "", "a condition key names the condition type after the colon"
	case strings.HasPrefix(k, TracePrefix):
		return slices.Contains(traceSteps, strings.TrimPrefix(k, TracePrefix)), "trace steps are " + strings.Join(traceSteps, ", ")
	case strings.HasPrefix(k, DriftPrefix):
		return slices.Contains(driftSteps, strings.TrimPrefix(k, DriftPrefix)), "drift steps are " + strings.Join(driftSteps, ", ")
	case k == WatchHandler:
		return true, ""
	case IsStage(k):
		id, what, _ := strings.Cut(k, ":")
		if id == locate.StageWrite || id == locate.StageReentry {
			return what != "", id + " names what after a colon"
		}
		return slices.Contains(locate.StageIDs, k), "stages are " + strings.Join(locate.StageIDs, ", ")
	}
	return false, "keys are a row id (" + strings.Join(locate.Rows, ", ") + "), " + ConditionType + "NAME, " +
		ConditionSet + "NAME, " + TracePrefix + "STEP, " + DriftPrefix + "STEP, " + WriteAlways + ", " + WriteUnsettled + ", " + HotLoop +
		", " + Partial + " or a stage"
}

// Check returns an error for every key of ws that no test reads: an
// unknown key, or a qualifier that names none of the fixture's
// controllers. A fixture of one controller may leave its keys unqualified.
func Check(ws []Want, controllers []string) []error {
	var errs []error
	for _, w := range ws {
		if ok, why := known(w); !ok {
			errs = append(errs, fmt.Errorf("%s: unknown want key %q (%s)", w.At, w.Key, why))
		}
		if w.Ctrl != "" && !slices.Contains(controllers, w.Ctrl) {
			errs = append(errs, fmt.Errorf("%s: want %q names no controller of the fixture (it holds %s)",
				w.At, w.Ctrl+"/"+w.Key, strings.Join(controllers, ", ")))
		}
	}
	return errs
}

// Expectations are what a fixture's keys state about one controller.
type Expectations struct {
	// Primary maps a row id to the file:line of its primary site; None
	// holds the want-none keys.
	Primary map[string]string
	None    map[string]bool
	// CondDecl and CondSet map a condition type to the file:line of its
	// declaration and of its set site.
	CondDecl, CondSet map[string]string
	// Answers map each key of the answers beyond the table ("trace:STEP",
	// "drift:STEP", "write-always", "hot-loop", "partial") to the lines
	// stating it.
	Answers map[string][]string
}

// For returns what ws state about the controller named ctrl: the keys
// naming it and those naming none. Stage keys are left out (the stage
// tests read them). A row wanted at two lines is an error.
func For(ws []Want, ctrl string) (Expectations, error) {
	e := Expectations{Primary: map[string]string{}, None: map[string]bool{},
		CondDecl: map[string]string{}, CondSet: map[string]string{}, Answers: map[string][]string{}}
	for _, w := range ws {
		k := w.Key
		switch {
		case w.Ctrl != "" && w.Ctrl != ctrl:
		case w.None:
			e.None[k] = true
		case strings.HasPrefix(k, ConditionType):
			e.CondDecl[strings.TrimPrefix(k, ConditionType)] = w.At
		case strings.HasPrefix(k, ConditionSet):
			e.CondSet[strings.TrimPrefix(k, ConditionSet)] = w.At
		case strings.HasPrefix(k, TracePrefix), strings.HasPrefix(k, DriftPrefix), k == WriteAlways, k == WriteUnsettled, k == HotLoop, k == Partial:
			e.Answers[k] = append(e.Answers[k], w.At)
		case IsStage(k):
		default:
			if prev, dup := e.Primary[k]; dup {
				return e, fmt.Errorf("%s: want %q already stated at %s", w.At, k, prev)
			}
			e.Primary[k] = w.At
		}
	}
	return e, nil
}
