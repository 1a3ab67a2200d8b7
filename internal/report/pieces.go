package report

import (
	"fmt"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// pieceKind says how a piece of a sentence is rendered.
type pieceKind int

const (
	pieceText   pieceKind = iota // plain text
	pieceCode                    // a symbol or name, in code type
	pieceStrong                  // a name set in bold
	pieceProse                   // prose from the analysis, whose citations become links
	pieceCite                    // a citation
)

// piece is one part of a sentence that markdown and HTML both say (what
// theirs has that ours lacks, a note on a partial analysis, a write), so
// that what is said is worked out once and only its rendering differs.
type piece struct {
	kind pieceKind
	text string
	tree result.Tree // the tree of a prose or citation piece
	site cite.Site   // a citation piece's site
}

func textPiece(s string) piece                   { return piece{kind: pieceText, text: s} }
func codePiece(s string) piece                   { return piece{kind: pieceCode, text: s} }
func strongPiece(s string) piece                 { return piece{kind: pieceStrong, text: s} }
func prosePiece(t result.Tree, s string) piece   { return piece{kind: pieceProse, text: s, tree: t} }
func citePiece(t result.Tree, s cite.Site) piece { return piece{kind: pieceCite, tree: t, site: s} }

// mdPieces renders a sentence as markdown.
func mdPieces(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		switch p.kind {
		case pieceText:
			b.WriteString(mdEscape(p.text))
		case pieceCode:
			b.WriteString("`" + p.text + "`")
		case pieceStrong:
			b.WriteString("**" + mdEscape(p.text) + "**")
		case pieceProse:
			b.WriteString(mdText(p.tree, p.text))
		case pieceCite:
			b.WriteString(mdCite(p.tree, p.site.File, p.site.Line, p.site.Func, p.site.Text))
		}
	}
	return b.String()
}

// joinPieces joins sentences with a separator.
func joinPieces(parts [][]piece, sep string) []piece {
	var out []piece
	for i, p := range parts {
		if i > 0 {
			out = append(out, textPiece(sep))
		}
		out = append(out, p...)
	}
	return out
}

// partialNotes say, for each tree of the sides whose analysis was partial,
// why: functions left out because of type errors (whose rows are not
// settled), or other problems met reading it. A journal written from a
// partial analysis says so.
func partialNotes(sides []result.Side) [][]piece {
	var notes [][]piece
	seen := map[string]bool{}
	for _, s := range sides {
		t := s.Tree
		name := t.Side
		if name == "" {
			name = t.Label()
		}
		if seen[name] || len(t.Warnings) == 0 && len(t.Unanalysed) == 0 {
			continue
		}
		seen[name] = true
		if n := len(t.Unanalysed); n > 0 {
			var named [][]piece
			for _, f := range t.Unanalysed[:min(n, maxNamed)] {
				named = append(named, []piece{codePiece(f)})
			}
			if n > maxNamed {
				named = append(named, []piece{textPiece("…")})
			}
			they := "they"
			if n == 1 {
				they = "it"
			}
			note := []piece{textPiece(fmt.Sprintf("Partial analysis: %s of %s could not be analysed because of type errors (", plural(n, "function"), name))}
			note = append(note, joinPieces(named, ", ")...)
			note = append(note, textPiece(fmt.Sprintf("; see the warnings); rows %s might answer say \"not settled\".", they)))
			notes = append(notes, note)
			continue
		}
		notes = append(notes, []piece{textPiece(fmt.Sprintf("Partial analysis: reading %s met %s (see the warnings); rows may lack answers the tree holds.", name, plural(len(t.Warnings), "problem")))})
	}
	return notes
}

// conditionTypes says each condition type of the conditions row, cited at
// its constant, with the site that sets it.
func conditionTypes(t result.Tree, r locate.Row) [][]piece {
	var out [][]piece
	for _, s := range r.Sites {
		cell := []piece{strongPiece(s.Name), textPiece(" "), citePiece(t, s.Site)}
		if s.Set != nil {
			cell = append(cell, textPiece(" set "), citePiece(t, *s.Set))
		}
		if s.Partial {
			cell = append(cell, textPiece(" "+partialMark))
		}
		out = append(out, cell)
	}
	return out
}

// splitWrites parts a controller's writes into those of every pass that
// succeeds and those made only on some paths, each in the reconcile's order.
func splitWrites(ws []locate.Write) (always, some []locate.Write) {
	for _, wr := range ws {
		if wr.Always {
			always = append(always, wr)
		} else {
			some = append(some, wr)
		}
	}
	return always, some
}

// writePieces says one write: its verb, its target and where.
func writePieces(t result.Tree, w locate.Write) []piece {
	out := []piece{textPiece(w.Verb + " " + w.Target + " at "), citePiece(t, w.Site)}
	if w.Note != "" {
		out = append(out, textPiece(" ("), prosePiece(t, w.Note), textPiece(")"))
	}
	if w.Partial {
		out = append(out, textPiece(" "+partialMark))
	}
	return out
}

// lacksItems lists, with citations, each row or answer where theirs has an
// answer and ours has none.
func lacksItems(theirs, ours result.Side) [][]piece {
	var items [][]piece
	// missing says whether theirs answers every row of ids and ours none,
	// and gives ours' reason (the last row's).
	missing := func(ids ...string) (reason string, ok bool) {
		for _, id := range ids {
			if !hasPrimary(theirs.Controller.Rows[id]) || hasPrimary(ours.Controller.Rows[id]) {
				return "", false
			}
			reason = ours.Controller.Rows[id].None
		}
		return reason, true
	}
	theirCite := func(id string) piece {
		p, _ := theirs.Controller.Rows[id].Primary()
		return citePiece(theirs.Tree, p.Site)
	}
	oursNone := func(reason string) []piece {
		return []piece{textPiece("; ours none ("), prosePiece(ours.Tree, reason), textPiece(")")}
	}
	finalizer := []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove}
	if reason, ok := missing(finalizer...); ok {
		var cites [][]piece
		for _, id := range finalizer {
			cites = append(cites, []piece{textPiece(locate.Question(id) + " "), theirCite(id)})
		}
		item := append([]piece{textPiece("a finalizer: theirs has ")}, joinPieces(cites, ", ")...)
		items = append(items, append(item, oursNone(reason)...))
	}
	for _, id := range []string{locate.RowEntry, locate.RowReread, locate.RowConditionTypes, locate.RowRequeueError} {
		reason, ok := missing(id)
		if !ok {
			continue
		}
		has := []piece{theirCite(id)}
		if id == locate.RowConditionTypes {
			has = joinPieces(conditionTypes(theirs.Tree, theirs.Controller.Rows[id]), ", ")
		}
		item := append([]piece{textPiece(locate.Question(id) + ": theirs has ")}, has...)
		items = append(items, append(item, oursNone(reason)...))
	}
	if tt := theirs.Controller.IntervalTrace; len(tt) > 0 && len(ours.Controller.IntervalTrace) == 0 {
		end := tt[len(tt)-1]
		items = append(items, []piece{
			textPiece("a timed requeue on success: theirs returns one at "), citePiece(theirs.Tree, tt[0].Site),
			textPiece(" and its duration comes from " + end.Step + " "), citePiece(theirs.Tree, end.Site),
			textPiece(", so it reconciles again on a timer as well as on watch events; ours none ("),
			prosePiece(ours.Tree, ours.Controller.Rows[locate.RowRequeueSuccess].None), textPiece(")"),
		})
	}
	if td := theirs.Controller.Drift; hasStep(td, locate.StepLibraryCompare) && !hasStep(ours.Controller.Drift, locate.StepLibraryCompare) {
		item := []piece{textPiece("drift correction as an explicit step: theirs applies through a drift-detecting library at "), citePiece(theirs.Tree, td[0].Site), textPiece("; ours: ")}
		od := ours.Controller.Drift
		if st, ok := firstStep(od, locate.StepCompare); ok {
			item = append(item, textPiece("a comparison by hand at "), citePiece(ours.Tree, st.Site))
		} else if st, ok := firstStep(od, locate.StepUnread); ok {
			item = append(item, textPiece("not settled: a function on its reconcile path could not be analysed, at "), citePiece(ours.Tree, st.Site))
		} else if ours.Controller.Unsettled != "" {
			item = append(item, textPiece("not settled: "), prosePiece(ours.Tree, ours.Controller.Unsettled))
		} else if st, ok := firstStep(od, locate.StepUnsettled); ok {
			item = append(item, textPiece("no comparison found, and not settled: the write at "), citePiece(ours.Tree, st.Site), textPiece(" runs only on some paths under a guard not read"))
		} else {
			item = append(item, textPiece("none found"))
		}
		items = append(items, item)
	}
	return items
}
