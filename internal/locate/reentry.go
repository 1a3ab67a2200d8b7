package locate

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// informerEvent is the informer event a write's verb makes.
var informerEvent = map[string]string{verbCreate: eventAdd, verbUpdate: eventUpdate, verbPatch: eventUpdate, verbApply: eventUpdate, verbDelete: eventDelete}

// EventOf is the informer event (add, update, delete) a write of the verb
// makes on a watched kind; "" for a verb that makes none (record).
func EventOf(verb string) string { return informerEvent[verb] }

// reentry lists the handlers the sync's own writes fire again: each
// registration on an informer of a written type, for the event the write
// makes, with the calls from the handler to the workqueue as supporting
// sites.
func (a *analysis) reentry(regs []*registration, ws []stageWrite) Row {
	type hit struct {
		site   Site
		h      handlerFunc
		writes []string
	}
	hits := map[string]*hit{}
	var order []string
	add := func(r *registration, event, why string) {
		for _, h := range r.handlers {
			if h.event != event {
				continue
			}
			s := a.reentrySite(h)
			k := fmt.Sprintf("%s:%d", s.File, s.Line)
			if hits[k] == nil {
				s.Name = r.typ.Obj().Name() + " " + event
				hits[k] = &hit{site: s, h: h}
				order = append(order, k)
			}
			if !slices.Contains(hits[k].writes, why) {
				hits[k].writes = append(hits[k].writes, why)
			}
		}
	}
	for _, w := range ws {
		event := informerEvent[w.Verb]
		t := writtenType(w.info, w.call)
		if event == "" || t == nil {
			continue
		}
		for _, r := range regs {
			if r.typ == nil || !types.Identical(r.typ, t) {
				continue
			}
			add(r, event, fmt.Sprintf("%s %s (%s:%d)", w.Verb, w.Target, w.File, w.Line))
			if w.Verb == verbCreate {
				add(r, eventDelete, fmt.Sprintf("deleting the %s it creates at %s:%d (by hand, or by garbage collection) brings the owner back, and the next pass creates it again", t.Obj().Name(), w.File, w.Line))
			}
		}
	}
	var named, support []Site
	seen := map[string]bool{}
	for _, k := range order {
		h := hits[k]
		h.site.Note = strings.Join(h.writes, "; ") + " → " + h.site.Name + " handler"
		named = append(named, h.site)
		seen[k] = true
		for _, qc := range a.queueAdds(h.h.fn) {
			reach := a.prog.Reachable(h.h.fn)
			for _, e := range reach.Path(qc.in) {
				s := a.site(e.Site.Pos())
				if k := fmt.Sprintf("%s:%d", s.File, s.Line); !seen[k] {
					seen[k] = true
					s.Note = "on the way from the " + h.site.Name + " handler to the workqueue"
					support = append(support, s)
				}
			}
			s := a.site(qc.expr.Lparen)
			if k := fmt.Sprintf("%s:%d", s.File, s.Line); !seen[k] {
				seen[k] = true
				s.Note = "the " + h.site.Name + " handler enqueues here"
				support = append(support, s)
			}
		}
	}
	sortSites(named)
	sortSites(support)
	return rowOf(append(named, support...), "no informer the controller registers watches an object its sync writes")
}

// reentrySite cites a re-entry handler: the field of a named function, or in
// a literal the call that hands the object on to the workqueue.
func (a *analysis) reentrySite(h handlerFunc) Site {
	if h.lit == nil {
		return a.site(h.field.Pos())
	}
	for _, c := range a.callsIn(h.fn) {
		for _, o := range c.own {
			if len(a.queueAdds(o)) > 0 {
				return a.site(c.expr.Lparen)
			}
		}
	}
	return a.site(h.lit.Pos())
}
