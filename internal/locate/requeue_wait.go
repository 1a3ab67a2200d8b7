package locate

import "go/types"

// waitPrimary is, with no steady-state requeue, the wait with a nil error
// that is the requeue a success makes: after work that succeeded (a child
// just created) first, else on something else (a child still
// terminating); a wait on the deletion branch (a finalizer's cleanup still
// running) last, as it is not the success path's. Nil when there is none.
func (a *analysis) waitPrimary(rets []retSite, kind *types.Named) *retSite {
	var best *retSite
	bestRank := 0
	for i := range rets {
		r := &rets[i]
		if r.class != ClassDependencyWait || r.deferred {
			continue
		}
		if rank := a.waitRank(r, kind); best == nil || rank < bestRank {
			best, bestRank = r, rank
		}
	}
	return best
}

// waitRank orders the waits waitPrimary chooses from, lowest first: one on
// the deletion branch ranks after one that is not, and one after no work
// after one after work.
func (a *analysis) waitRank(r *retSite, kind *types.Named) int {
	rank := 0
	if a.onDeletion(r, kind) {
		rank += 2
	}
	if !r.afterWork {
		rank++
	}
	return rank
}

// alternativeWait is a wait of rets that ranks as w does and stands, in
// w's function, in the other branch of an if or another case of a switch
// than w: which of the two a pass makes is chosen there, not by their
// order. Nil when there is none.
func (a *analysis) alternativeWait(rets []retSite, w *retSite, kind *types.Named) *retSite {
	for i := range rets {
		r := &rets[i]
		if r == w || r.class != ClassDependencyWait || r.deferred || r.in != w.in || a.waitRank(r, kind) != a.waitRank(w, kind) {
			continue
		}
		if rel, _ := a.stmtRelation(r.pos, w.pos); rel == relBranches || rel == relCases {
			return r
		}
	}
	return nil
}
