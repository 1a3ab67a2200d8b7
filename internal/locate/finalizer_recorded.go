package locate

// A deletion recorded in a field: in a phase machine, one deletion branch
// records the deletion (newStatus.Phase = Terminating) and another, on
// this pass or a later one, only drops the finalizer; the work runs where
// the record is read. The cleanup row is then not settled.

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// recordsDeletion is, for a deletion branch taken only when the object is
// being deleted that neither removes the finalizer nor deletes objects,
// the first assignment to a field it makes (newStatus.Phase =
// Terminating): the deletion recorded, for code after it to act on.
func (a *analysis) recordsDeletion(body ast.Node, d deletionBranch, c *cleanup, removing bool) (Site, bool) {
	if !d.onlyWhenDeleted || removing || c.deletes {
		return Site{}, false
	}
	// The branch may be a span of the body's statements (fallThrough, a
	// clause's body): its statements are read in the body.
	var at *ast.AssignStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || at != nil || n == nil {
			return false
		}
		if n.End() <= d.branch.Pos() || n.Pos() >= d.branch.End() {
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && as.Pos() >= d.branch.Pos() {
			if _, field := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr); field {
				at = as
			}
		}
		return true
	})
	if at == nil {
		return Site{}, false
	}
	return a.site(at.Pos()), true
}

// recordedElsewhere is the cleanup of a deletion branch that only drops
// the finalizer (inline, or through a function that only removes it and
// saves the object) when another deletion branch records the deletion in
// a field (Phase = Terminating): the work may run where that state is
// read (a switch on the phase, this pass or a later one), which is not
// followed, so the row is not settled.
func (a *analysis) recordedElsewhere(c *cleanup, records []Site) *cleanup {
	at := records[0]
	at.Note = "a deletion branch that records state, which later code may act on"
	var drop Site
	for _, s := range c.sites {
		if strings.HasPrefix(s.Note, "the branch taken when DeletionTimestamp is set") {
			drop = s
		}
	}
	return &cleanup{sites: []Site{drop, at}, removes: c.removes, deleting: c.deleting,
		unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, only drops the finalizer, and the one at %s:%d records the deletion in a field (%s): the cleanup may run where that field is read, which is not followed", drop.File, drop.Line, at.File, at.Line, at.Text)}
}
