package realworld_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// key is one tree's answer key (testdata/realworld/FORMAT.md).
type key struct {
	Repo        string       `json:"repo"`
	Sha         string       `json:"sha"`
	Module      string       `json:"module"`
	Heldout     bool         `json:"heldout"`
	Expect      *expect      `json:"expect"`
	Controllers []controller `json:"controllers"`
}

// expect is a key's ratchet, recorded from a run: the tree fails the test
// when fewer of its rows are right, or more are wrong and stated as
// certain.
type expect struct {
	Right *int `json:"right"`
	Wrong *int `json:"wrong"`
	// Answers is the same ratchet for the answers beyond the table.
	Answers *expect `json:"answers"`
}

type controller struct {
	Kind  string            `json:"kind"`
	Name  string            `json:"name"`
	Style string            `json:"style"`
	Rows  map[string]answer `json:"rows"`
	// Answers are the answers beyond the table, when keyed.
	Answers *answersKey `json:"answers"`
}

// answer is the key's answer to one row.
type answer struct {
	At        string   `json:"at"`
	Class     string   `json:"class"`
	Types     []string `json:"types"`
	None      bool     `json:"none"`
	Unsettled bool     `json:"unsettled"`
}

// A verdict on one row. A row the key could not settle is not scored.
type verdict int

const (
	right      verdict = iota
	wrong              // a wrong site, or a none or a site where the key says otherwise, stated as certain
	notSettled         // ctrlcmp said "not settled": honest, but not right
	unscored           // the key could not settle it
)

// tally counts the verdicts of scored rows.
type tally struct{ right, wrong, notSettled int }

func (t *tally) add(v verdict) {
	switch v {
	case right:
		t.right++
	case wrong:
		t.wrong++
	case notSettled:
		t.notSettled++
	}
}

func (t *tally) plus(o tally) {
	t.right, t.wrong, t.notSettled = t.right+o.right, t.wrong+o.wrong, t.notSettled+o.notSettled
}

func (t tally) cells() string {
	return fmt.Sprintf("%d | %d | %d | %d", t.right, t.wrong, t.notSettled, t.right+t.wrong+t.notSettled)
}

// The two halves of the corpus: the keys tuned on, and the held-out ones
// (testdata/realworld/heldout, or "heldout": true), scored apart.
const (
	tuning  = "tuning"
	heldout = "held-out"
)

// keyFile is one answer key read from its file.
type keyFile struct {
	name, path, half string
	key
}

// TestRealworld scores every key whose tree is under $REALWORLD_DIR, as
// OWNER+NAME (the key's file name), checked out at the key's sha. It skips
// when REALWORLD_DIR is unset or no keyed tree is there, and fails on a
// malformed key, a tree checked out at another sha, or a tree below its
// key's ratchet.
func TestRealworld(t *testing.T) {
	keys := readKeys(t)
	dir := os.Getenv("REALWORLD_DIR")
	if dir == "" {
		t.Skip("REALWORLD_DIR is not set: check the keyed trees out under a directory and name it (make realworld: ../realworld)")
	}
	var present []keyFile
	for _, k := range keys {
		if st, err := os.Stat(filepath.Join(dir, k.name)); err == nil && st.IsDir() {
			present = append(present, k)
		}
	}
	if len(present) == 0 {
		t.Skipf("no keyed tree is checked out under %s (as OWNER+NAME, e.g. git clone %s %s)", dir, keys[0].Repo, filepath.Join(dir, keys[0].name))
	}
	var trees []string
	byRow := map[string]map[string]*tally{tuning: {}, heldout: {}}
	total := map[string]*tally{tuning: {}, heldout: {}}
	byAnswer := map[string]map[string]*tally{tuning: {}, heldout: {}}
	answersTotal := map[string]*tally{tuning: {}, heldout: {}}
	var answerTrees []string
	for _, k := range present {
		t.Run(k.name, func(t *testing.T) {
			s := score(t, filepath.Join(dir, k.name), k)
			for row, tl := range s.perRow {
				if byRow[k.half][row] == nil {
					byRow[k.half][row] = &tally{}
				}
				byRow[k.half][row].plus(tl)
			}
			for id, tl := range s.perAnswer {
				if byAnswer[k.half][id] == nil {
					byAnswer[k.half][id] = &tally{}
				}
				byAnswer[k.half][id].plus(tl)
			}
			total[k.half].plus(s.rows)
			answersTotal[k.half].plus(s.answers)
			var e, ea *expect
			if e = k.Expect; e != nil {
				ea = e.Answers
			}
			trees = append(trees, fmt.Sprintf("| %s | %s@%s | %s | %s |", k.half, k.name, k.Sha[:7], s.rows.cells(), ratchetOf(t, "rows", "expect", e, s.rows, k.path)))
			if s.answers != (tally{}) || ea != nil {
				answerTrees = append(answerTrees, fmt.Sprintf("| %s | %s@%s | %s | %s |", k.half, k.name, k.Sha[:7], s.answers.cells(), ratchetOf(t, "answers", "expect.answers", ea, s.answers, k.path)))
			}
		})
	}
	var b strings.Builder
	b.WriteString("\n| half | tree | right | wrong-certain | not settled | scored | ratchet |\n|---|---|---|---|---|---|---|\n")
	for _, l := range trees {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n| row | " + tuning + ": right | wrong-certain | not settled | scored | " + heldout + ": right | wrong-certain | not settled | scored |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, row := range locate.Rows {
		tu, he := byRow[tuning][row], byRow[heldout][row]
		if tu == nil && he == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", row, cellsOf(tu), cellsOf(he))
	}
	fmt.Fprintf(&b, "| **total** | %s | %s |\n", total[tuning].cells(), total[heldout].cells())
	b.WriteString("\nThe answers beyond the table (interval trace, writes of an unchanged pass, drift):\n")
	b.WriteString("\n| half | tree | right | wrong-certain | not settled | scored | ratchet |\n|---|---|---|---|---|---|---|\n")
	for _, l := range answerTrees {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n| answer | " + tuning + ": right | wrong-certain | not settled | scored | " + heldout + ": right | wrong-certain | not settled | scored |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, id := range answerIDs {
		tu, he := byAnswer[tuning][id], byAnswer[heldout][id]
		if tu == nil && he == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", id, cellsOf(tu), cellsOf(he))
	}
	fmt.Fprintf(&b, "| **total** | %s | %s |\n", answersTotal[tuning].cells(), answersTotal[heldout].cells())
	t.Log(b.String())
}

// ratchetOf checks a tree's tally of rows or answers against its key's
// ratchet (the field named), and describes the ratchet for the table.
func ratchetOf(t *testing.T, what, field string, e *expect, got tally, path string) string {
	t.Helper()
	if e == nil {
		return "-"
	}
	if e.Right != nil && got.right < *e.Right {
		t.Errorf("%d %s right, the key's ratchet expects at least %d (%s.right in %s): find the %s that moved in the log above; if the loss is meant, lower it and say why in the commit", got.right, what, *e.Right, field, path, what)
	}
	if e.Wrong != nil && got.wrong > *e.Wrong {
		t.Errorf("%d %s wrong and stated as certain, the key's ratchet allows at most %d (%s.wrong in %s): find it in the log above; a wrong answer stated as certain is the worst failure, so fix the locator rather than raise the ratchet", got.wrong, what, *e.Wrong, field, path)
	}
	return fmt.Sprintf("right ≥ %s, wrong ≤ %s", orDash(e.Right), orDash(e.Wrong))
}

// readKeys reads and checks every key, the tuning half and the held-out.
func readKeys(t *testing.T) []keyFile {
	t.Helper()
	root := filepath.Join("..", "..", "testdata", "realworld")
	tuned, err := filepath.Glob(filepath.Join(root, "*.json"))
	if err != nil || len(tuned) == 0 {
		t.Fatalf("no answer keys under %s (%v)", root, err)
	}
	held, _ := filepath.Glob(filepath.Join(root, "heldout", "*.json"))
	var keys []keyFile
	seen := map[string]string{}
	for _, path := range append(tuned, held...) {
		k := keyFile{name: strings.TrimSuffix(filepath.Base(path), ".json"), path: filepath.ToSlash(path)}
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &k.key)
		}
		if err != nil || k.Repo == "" || len(k.Sha) != 40 || len(k.Controllers) == 0 {
			t.Errorf("%s: not an answer key (repo, a 40-hex sha and controllers are required; see FORMAT.md): %v", path, err)
			continue
		}
		if other, dup := seen[k.name]; dup {
			t.Errorf("%s: the tree is keyed twice (also %s): merge the controllers into one key", path, other)
			continue
		}
		seen[k.name] = path
		k.half = tuning
		if k.Heldout || filepath.Base(filepath.Dir(path)) == "heldout" {
			k.half = heldout
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		t.FailNow()
	}
	return keys
}

// scores are one tree's verdicts: per row and per answer, and their sums.
type scores struct {
	perRow, perAnswer map[string]tally
	rows, answers     tally
}

// score locates the tree and judges each keyed controller's rows and
// answers, logging every one that is not right, but for a held-out key's.
func score(t *testing.T, root string, k keyFile) scores {
	s := scores{perRow: map[string]tally{}, perAnswer: map[string]tally{}}
	// The held-out half is scored, not shown: what a miss there is stays
	// unread until the held-out set is retired (REALWORLD_SHOW_HELDOUT=1).
	logf := t.Logf
	if k.half == heldout && os.Getenv("REALWORLD_SHOW_HELDOUT") == "" {
		logf = func(string, ...any) {}
	}
	note := func(row string, v verdict) {
		tl := s.perRow[row]
		tl.add(v)
		s.perRow[row] = tl
		s.rows.add(v)
	}
	noteAnswer := func(id string, v verdict) {
		if v == unscored {
			return
		}
		tl := s.perAnswer[id]
		tl.add(v)
		s.perAnswer[id] = tl
		s.answers.add(v)
	}
	tr, err := inspect.Tree(context.Background(), filepath.Join(root, k.Module), "", "", nil)
	if err != nil {
		// Not an answer stated as certain: every row is left unsettled.
		logf("not analysed: %v", err)
		for _, kc := range k.Controllers {
			for row, want := range kc.Rows {
				if !want.Unsettled {
					note(row, notSettled)
				}
			}
			if kc.Answers != nil {
				for _, id := range answerIDs {
					if want := kc.Answers.byID(id); want != nil && !want.Unsettled {
						noteAnswer(id, notSettled)
					}
				}
			}
		}
		return s
	}
	if tr.Sha != "" && tr.Sha != k.Sha {
		t.Errorf("%s is checked out at %s, the key %s is written against %s: git -C %s checkout -q %s", root, tr.Sha, k.path, k.Sha, root, k.Sha)
	}
	// Citations of a tree outside git are relative to the module, the
	// key's to the repository. A tree in a repository whose commit could
	// not be read (a warning says why) is still cited from its root.
	prefix := ""
	if !insideGit(root) && k.Module != "" {
		prefix = strings.TrimSuffix(filepath.ToSlash(k.Module), "/") + "/"
	}
	for _, kc := range k.Controllers {
		got, found := find(tr.Controllers, kc, prefix)
		if !found {
			got, found = alike(tr.Controllers, kc, prefix)
		}
		if !found {
			logf("%s (%s): no such controller found", kc.Kind, kc.Name)
		}
		for _, row := range locate.Rows {
			want, keyed := kc.Rows[row]
			if !keyed {
				continue
			}
			v, why := judge(got.Rows[row], want, prefix, found)
			note(row, v)
			switch v {
			case wrong:
				logf("%s %s: wrong-certain: %s", kc.Kind, row, why)
			case notSettled:
				// ctrlcmp's own reason may already say so: once is enough.
				logf("%s %s: not settled: %s", kc.Kind, row, strings.TrimPrefix(why, "not settled: "))
			}
		}
		if kc.Answers == nil {
			continue
		}
		for _, id := range answerIDs {
			v, why := judgeAnswer(id, got, kc.Answers.byID(id), prefix, found)
			noteAnswer(id, v)
			switch v {
			case wrong:
				logf("%s answer %s: wrong-certain: %s", kc.Kind, id, why)
			case notSettled:
				logf("%s answer %s: not settled: %s", kc.Kind, id, why)
			}
		}
	}
	return s
}

// find picks the located controller of a keyed one: by its entry, when
// ctrlcmp cites the key's (several controllers of one tree may share a
// kind and a type name, each in its own package), else by kind and name,
// else by kind alone, else by name alone (a controller whose kind ctrlcmp
// could not tell), when that leaves one.
func find(ctrls []locate.Controller, kc controller, prefix string) (locate.Controller, bool) {
	if entry := kc.Rows[locate.RowEntry].At; entry != "" {
		var byEntry []locate.Controller
		for _, c := range ctrls {
			if p, ok := c.Rows[locate.RowEntry].Primary(); ok && fmt.Sprintf("%s%s:%d", prefix, p.File, p.Line) == entry {
				byEntry = append(byEntry, c)
			}
		}
		if len(byEntry) == 1 {
			return byEntry[0], true
		}
	}
	var byKind, byName []locate.Controller
	for _, c := range ctrls {
		sameKind, sameName := strings.EqualFold(c.Kind, kc.Kind), kc.Name != "" && c.Name == kc.Name
		if sameKind && sameName {
			return c, true
		}
		if sameKind {
			byKind = append(byKind, c)
		}
		if sameName && c.Kind == "" {
			byName = append(byName, c)
		}
	}
	switch {
	case len(byKind) == 1:
		return byKind[0], true
	case len(byKind) == 0 && len(byName) == 1:
		return byName[0], true
	}
	return locate.Controller{}, false
}

// alike picks, for a keyed controller that several located ones match by
// kind and by nothing more (two registrations of one reconciler type, one
// per API group), the first of them when each is scored the same on every
// row and answer: which of them stands for the key does not move the
// score. It finds none when they are scored differently.
func alike(ctrls []locate.Controller, kc controller, prefix string) (locate.Controller, bool) {
	var same []locate.Controller
	for _, c := range ctrls {
		if strings.EqualFold(c.Kind, kc.Kind) {
			same = append(same, c)
		}
	}
	if len(same) < 2 {
		return locate.Controller{}, false
	}
	verdicts := func(c locate.Controller) string {
		var b strings.Builder
		for _, row := range locate.Rows {
			if want, keyed := kc.Rows[row]; keyed {
				v, _ := judge(c.Rows[row], want, prefix, true)
				fmt.Fprint(&b, v, " ")
			}
		}
		if kc.Answers != nil {
			for _, id := range answerIDs {
				v, _ := judgeAnswer(id, c, kc.Answers.byID(id), prefix, true)
				fmt.Fprint(&b, v, " ")
			}
		}
		return b.String()
	}
	first := verdicts(same[0])
	for _, c := range same[1:] {
		if verdicts(c) != first {
			return locate.Controller{}, false
		}
	}
	return same[0], true
}

// settledNot says whether ctrlcmp's reason says its search was not
// complete ("not settled: …", or a site's "not settled beyond these").
func settledNot(s string) bool { return strings.Contains(s, "not settled") }

// judge compares one located row with the key's answer. A controller not
// found counts as wrong: "no controller" is itself a claim.
func judge(r locate.Row, want answer, prefix string, found bool) (verdict, string) {
	if want.Unsettled {
		return unscored, ""
	}
	if !found {
		return wrong, "the controller was not found"
	}
	p, has := r.Primary()
	at := ""
	if has {
		at = fmt.Sprintf("%s%s:%d", prefix, p.File, p.Line)
	}
	if !has && settledNot(r.None) {
		return notSettled, fmt.Sprintf("%s; the key says %s", r.None, describe(want))
	}
	switch {
	case want.Types != nil:
		var names []string
		for _, s := range r.Sites {
			names = append(names, s.Name)
		}
		sort.Strings(names)
		w := slices.Clone(want.Types)
		sort.Strings(w)
		if slices.Equal(names, w) {
			return right, ""
		}
		why := fmt.Sprintf("types %v, the key says %v", names, w)
		// Types it found, all in the key, and a note that the rest is
		// not settled: honest.
		if settledNot(p.Note) && !slices.ContainsFunc(names, func(n string) bool { return !slices.Contains(w, n) }) {
			return notSettled, why + " (" + p.Note + ")"
		}
		return wrong, why
	case want.None:
		if has {
			return wrong, fmt.Sprintf("cites %s where the key says none", at)
		}
		return right, ""
	}
	if !has {
		return wrong, fmt.Sprintf("none (%s), the key says %s", r.None, want.At)
	}
	if at != want.At {
		return wrong, fmt.Sprintf("cites %s, the key says %s", at, want.At)
	}
	if want.Class != "" && p.Class != want.Class {
		return wrong, fmt.Sprintf("class %s at %s, the key says %s", p.Class, at, want.Class)
	}
	return right, ""
}

// describe is the key's answer, for a log line.
func describe(a answer) string {
	switch {
	case a.Types != nil:
		return fmt.Sprintf("types %v", a.Types)
	case a.None:
		return "none"
	case a.Class != "":
		return a.At + " (" + a.Class + ")"
	}
	return a.At
}

func orDash(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

func cellsOf(t *tally) string {
	if t == nil {
		return "0 | 0 | 0 | 0"
	}
	return t.cells()
}

// insideGit reports whether dir or one of its parents holds .git.
func insideGit(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
