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
	Controllers []controller `json:"controllers"`
}

type controller struct {
	Kind  string            `json:"kind"`
	Name  string            `json:"name"`
	Style string            `json:"style"`
	Rows  map[string]answer `json:"rows"`
}

// answer is the key's answer to one row.
type answer struct {
	At        string   `json:"at"`
	Class     string   `json:"class"`
	Types     []string `json:"types"`
	None      bool     `json:"none"`
	Unsettled bool     `json:"unsettled"`
}

// The verdicts on one row.
const (
	verdictRight   = "right"
	verdictWrong   = "wrong"
	verdictSkipped = "skipped" // the key could not settle it
)

// TestRealworld scores every key whose tree is under $REALWORLD_DIR, as
// OWNER+NAME (the key's file name), checked out at the key's sha.
func TestRealworld(t *testing.T) {
	dir := os.Getenv("REALWORLD_DIR")
	keys, err := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "*.json"))
	if err != nil || len(keys) == 0 {
		t.Fatalf("no answer keys under testdata/realworld (%v)", err)
	}
	perRow := map[string][2]int{} // row -> right, scored
	var lines []string
	for _, path := range keys {
		var k key
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &k)
		}
		if err != nil || k.Repo == "" || len(k.Sha) != 40 || len(k.Controllers) == 0 {
			t.Errorf("%s: not an answer key (repo, a 40-hex sha and controllers are required): %v", path, err)
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		root := filepath.Join(dir, name)
		if dir == "" {
			t.Logf("%s: skipped: REALWORLD_DIR is not set", name)
			continue
		}
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			t.Logf("%s: skipped: %s is not checked out (%s at %s)", name, root, k.Repo, k.Sha)
			continue
		}
		right, scored, notes := score(t, root, k)
		for row, rs := range scored {
			pr := perRow[row]
			pr[0] += right[row]
			pr[1] += rs
			perRow[row] = pr
		}
		r, s := 0, 0
		for row := range scored {
			r, s = r+right[row], s+scored[row]
		}
		lines = append(lines, fmt.Sprintf("| %s@%s | %d/%d |", name, k.Sha[:7], r, s))
		for _, n := range notes {
			t.Logf("%s: %s", name, n)
		}
	}
	if len(lines) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("\n| tree | right/scored |\n|---|---|\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n| row | right/scored |\n|---|---|\n")
	for _, row := range locate.Rows {
		if pr := perRow[row]; pr[1] > 0 {
			fmt.Fprintf(&b, "| %s | %d/%d |\n", row, pr[0], pr[1])
		}
	}
	t.Log(b.String())
}

// score locates the tree and compares each keyed controller's rows.
func score(t *testing.T, root string, k key) (right, scored map[string]int, notes []string) {
	right, scored = map[string]int{}, map[string]int{}
	tr, err := inspect.Tree(context.Background(), filepath.Join(root, k.Module), "", "", nil)
	if err != nil {
		notes = append(notes, fmt.Sprintf("not analysed: %v", err))
		for _, kc := range k.Controllers {
			for row := range kc.Rows {
				scored[row]++
			}
		}
		return right, scored, notes
	}
	// Citations of a tree outside git are relative to the module, the
	// key's to the repository.
	prefix := ""
	if tr.Sha == "" && k.Module != "" {
		prefix = strings.TrimSuffix(filepath.ToSlash(k.Module), "/") + "/"
	}
	for _, kc := range k.Controllers {
		got, ok := find(tr.Controllers, kc)
		if !ok {
			notes = append(notes, fmt.Sprintf("%s (%s): no such controller found", kc.Kind, kc.Name))
		}
		for _, row := range locate.Rows {
			want, keyed := kc.Rows[row]
			if !keyed {
				continue
			}
			verdict, why := judge(got.Rows[row], want, prefix, ok)
			if verdict == verdictSkipped {
				continue
			}
			scored[row]++
			if verdict == verdictRight {
				right[row]++
			} else {
				notes = append(notes, fmt.Sprintf("%s %s: %s", kc.Kind, row, why))
			}
		}
	}
	return right, scored, notes
}

// find picks the located controller of a keyed one: by kind and name, else
// by kind alone, else by name alone (a controller whose kind ctrlcmp could
// not tell), when that leaves one.
func find(ctrls []locate.Controller, kc controller) (locate.Controller, bool) {
	var byKind, byName []locate.Controller
	for _, c := range ctrls {
		sameKind, sameName := strings.EqualFold(c.Kind, kc.Kind), kc.Name != "" && c.Name == kc.Name
		if sameKind && sameName {
			return c, true
		}
		if sameKind {
			byKind = append(byKind, c)
		}
		if sameName {
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

// judge compares one located row with the key's answer.
func judge(r locate.Row, want answer, prefix string, found bool) (string, string) {
	if want.Unsettled {
		return verdictSkipped, ""
	}
	if !found {
		return verdictWrong, "the controller was not found"
	}
	p, has := r.Primary()
	at := ""
	if has {
		at = fmt.Sprintf("%s%s:%d", prefix, p.File, p.Line)
	}
	switch {
	case want.None:
		if has && len(want.Types) == 0 {
			return verdictWrong, fmt.Sprintf("cites %s where the key says none", at)
		}
		return verdictRight, ""
	case want.Types != nil:
		var names []string
		for _, s := range r.Sites {
			names = append(names, s.Name)
		}
		sort.Strings(names)
		w := slices.Clone(want.Types)
		sort.Strings(w)
		if !slices.Equal(names, w) {
			return verdictWrong, fmt.Sprintf("types %v, the key says %v", names, w)
		}
		return verdictRight, ""
	}
	if !has {
		return verdictWrong, fmt.Sprintf("none (%s), the key says %s", r.None, want.At)
	}
	if at != want.At {
		return verdictWrong, fmt.Sprintf("cites %s, the key says %s", at, want.At)
	}
	if want.Class != "" && p.Class != want.Class {
		return verdictWrong, fmt.Sprintf("class %s, the key says %s", p.Class, want.Class)
	}
	return verdictRight, ""
}
