package locate

import (
	"fmt"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// conditionTypes finds every condition type the controller sets on its own
// object, each cited at its constant with one set site: the types that flow
// into a condition set on the primary object in a function of the
// reconcile path (condflow.go), those holding type errors included (their
// sites are partial).
func (a *analysis) conditionTypes(kind *types.Named, reach *callgraph.Reach) Row {
	type setSite struct {
		site           Site
		truth, partial bool
	}
	decl := map[string]Site{}
	sets := map[string][]setSite{}
	seenSet := map[string]bool{}
	var names []string
	var lost []string // where a type could not be followed
	flow := a.condFlowFor(kind)
	bodies := a.reachedBodies(reach)
	for _, b := range bodies {
		for _, eff := range flow.summary(b).effects {
			t := eff.typ
			if eff.target >= 0 || !t.settled() || t.copied {
				continue
			}
			if !t.followed() {
				s := a.site(eff.site)
				at := fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func)
				if t.end.IsValid() {
					if e := a.site(t.end); e.File != s.File || e.Line != s.Line {
						at = fmt.Sprintf("%s:%d (%s; its type's trail ends at %s:%d, %s)", s.File, s.Line, s.Func, e.File, e.Line, t.why)
					}
				}
				if !slices.Contains(lost, at) {
					lost = append(lost, at)
				}
				continue
			}
			name := t.value
			if _, ok := decl[name]; !ok {
				names = append(names, name)
				if t.k != nil {
					decl[name] = a.objSite(t.k)
				} else {
					s := a.site(eff.site)
					s.Note = "a string literal: no constant declares this condition type"
					decl[name] = s
				}
			}
			key := fmt.Sprintf("%s@%d", name, eff.site)
			if seenSet[key] {
				continue
			}
			seenSet[key] = true
			sets[name] = append(sets[name], setSite{a.site(eff.site), t.truth, t.partial})
		}
	}
	if len(names) == 0 && len(lost) > 0 {
		return none("not settled: a condition is set on the primary object at " + listSites(lost) + ", with a type that could not be followed to a constant")
	}
	if len(names) == 0 {
		kindName := "the primary object"
		if kind != nil {
			kindName = "the " + kind.Obj().Name()
		}
		return noneAfter("no status condition is set on the primary object on the reconcile path",
			fmt.Sprintf("every store that reaches %s's Status.Conditions (a condition setter of the knowledge table, an append, an index store, a list assigned whole, a helper whose summary sets one) in %s on the reconcile path (%s), with the helpers and library bodies they call", kindName, countOf(len(bodies), "function"), bodyNames(bodies)))
	}
	var out []Site
	for _, name := range names {
		ss := sets[name]
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].partial != ss[j].partial {
				return !ss[i].partial
			}
			if ss[i].site.File != ss[j].site.File {
				return ss[i].site.File < ss[j].site.File
			}
			return ss[i].site.Line < ss[j].site.Line
		})
		chosen := ss[0]
		for _, s := range ss {
			if s.truth && s.partial == chosen.partial {
				chosen = s
				break
			}
		}
		d := decl[name]
		d.Name = name
		set := chosen.site.Site
		d.Set = &set
		d.Partial = chosen.partial
		out = append(out, d)
	}
	// The summary condition (Ready, by convention) is the one set on most
	// paths: it is the primary, the others follow by name.
	sort.SliceStable(out, func(i, j int) bool {
		ni, nj := len(sets[out[i].Name]), len(sets[out[j].Name])
		if ni != nj {
			return ni > nj
		}
		return out[i].Name < out[j].Name
	})
	out[0].Primary = true
	if len(lost) > 0 {
		note := "not settled beyond these: a condition is also set at " + listSites(lost) + ", with a type that could not be followed to a constant"
		out[0].Note = strings.TrimPrefix(out[0].Note+"; "+note, "; ")
	}
	return Row{Sites: out}
}

// countOf says how many of a thing there are: "1 function", "3 functions".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// bodyNames names the functions of some bodies, up to six, saying how
// many more there are.
func bodyNames(bodies []*flowBody) string {
	var names []string
	for _, b := range bodies {
		names = append(names, cite.FuncName(b.decl))
	}
	const most = 6
	if len(names) > most {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
	}
	return strings.Join(names, ", ")
}

// listSites joins up to three places, saying how many more there are.
func listSites(at []string) string {
	const most = 3
	if len(at) <= most {
		return strings.Join(at, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(at[:most], ", "), len(at)-most)
}

// reachedBodies are the bodies of the functions on the reconcile path: the
// declarations of the reached functions (a closure is read with the
// function that makes it) and of those left out of the call graph because
// they hold type errors.
func (a *analysis) reachedBodies(reach *callgraph.Reach) []*flowBody {
	var out []*flowBody
	seen := map[*flowBody]bool{}
	for _, fn := range append(append([]*ssa.Function(nil), reach.Funcs()...), reach.Unanalysed...) {
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			continue
		}
		if b := a.ownBody(obj.Origin()); b != nil && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out
}

// lookupConst finds a package-level constant among the loaded packages.
func (a *analysis) lookupConst(pkgPath, name string) *types.Const {
	if p := a.tree.Types(pkgPath); p != nil {
		k, _ := p.Scope().Lookup(name).(*types.Const)
		return k
	}
	return nil
}
