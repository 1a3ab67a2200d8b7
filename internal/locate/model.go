// Package locate finds the controllers of a loaded tree and, for each, the
// sites that answer the rows of the comparison table (spec/rows.md): the
// reconcile entry, the re-read, the finalizer's constant, addition, cleanup
// and removal, the status condition types, and the requeues on error and on
// success.
//
// Library calls are recognised by identity (go/types objects) against one
// knowledge table (knowledge.go); helpers are followed through the call
// graph of package callgraph.
package locate

import (
	"fmt"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// The row ids of spec/rows.md, in table order.
const (
	RowEntry            = "reconcile-entry"
	RowReread           = "reread"
	RowFinalizerConst   = "finalizer-const"
	RowFinalizerAdd     = "finalizer-add"
	RowFinalizerCleanup = "finalizer-cleanup"
	RowFinalizerRemove  = "finalizer-remove"
	RowConditionTypes   = "condition-types"
	RowRequeueError     = "requeue-error"
	RowRequeueSuccess   = "requeue-success"
)

// The controller styles.
const (
	StyleControllerRuntime = "controller-runtime"
	StyleClientGo          = "client-go"
	StyleGenerated         = "generated"
)

// Requeue classes (spec/rows.md).
const (
	ClassErrorBackoff      = "error-backoff"
	ClassTerminal          = "terminal"
	ClassRetryAfterFailure = "retry-after-failure"
	ClassDependencyWait    = "dependency-wait"
	ClassImmediate         = "immediate"
	ClassSuccessInterval   = "success-interval"
	ClassNone              = "none"
)

// Site is one cited place that answers a row.
type Site struct {
	cite.Site
	Primary bool   `json:"primary"`
	Name    string `json:"name,omitempty"`
	Class   string `json:"class,omitempty"`
	Note    string `json:"note,omitempty"`
	// Set is, for a condition type, where the controller sets it.
	Set *cite.Site `json:"set,omitempty"`
	// Partial says the site was found in a function body holding type
	// errors, read from its syntax and the types recorded (no SSA).
	Partial bool `json:"partial,omitempty"`
}

// Row is the answer to one row: sites (exactly one primary), or the reason
// there is none. A none is a claim: Searched says what the search covered
// (the candidates it looked for, and where), so that a reader can judge
// it; a reason beginning "not settled" says the search was not complete
// and where its trail ends.
type Row struct {
	Sites    []Site `json:"sites"`
	None     string `json:"none,omitempty"`
	Searched string `json:"searched,omitempty"`
}

// Controller is one controller found in a tree with its rows.
type Controller struct {
	Name  string         `json:"name"`
	Kind  string         `json:"kind"`
	Style string         `json:"style"`
	Rows  map[string]Row `json:"rows"`
	// Writes are every write the reconcile can make (what one pass of an
	// unchanged object writes is the subset marked always).
	Writes []Write `json:"writes"`
	// IntervalTrace follows the success requeue's duration back to what
	// sets it; RetryTrace does the same for the failure path's requeue.
	IntervalTrace []Step `json:"interval-trace,omitempty"`
	RetryTrace    []Step `json:"retry-trace,omitempty"`
	// Drift is where desired state is compared with the cluster and the
	// difference applied.
	Drift []Step `json:"drift"`
	// Unsettled, when set, says why the answers under the table (writes,
	// drift) are not settled: the controller was found but not analysed.
	Unsettled string `json:"unsettled,omitempty"`
	// Stages are a client-go controller's five stage sites and re-entry
	// paths (stages.go); Anchors the same sites as the syntax a log line
	// is placed at.
	Stages  map[string]Row `json:"stages,omitempty"`
	Anchors []StageAnchor  `json:"-"`
}

// Primary returns the primary site of a row, if any.
func (r Row) Primary() (Site, bool) {
	for _, s := range r.Sites {
		if s.Primary {
			return s, true
		}
	}
	return Site{}, false
}

// Cited is the file:line a row is answered at in the tree: its primary
// site's, or for a primary site in a dependency (module@version/path,
// the library's own read of the object), the row's first site in the
// tree, the call that leads there; ok is false when the row has no
// primary site.
func (r Row) Cited() (string, bool) {
	p, ok := r.Primary()
	if !ok {
		return "", false
	}
	if strings.Contains(p.File, "@") {
		for _, s := range r.Sites {
			if !strings.Contains(s.File, "@") {
				return fmt.Sprintf("%s:%d", s.File, s.Line), true
			}
		}
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line), true
}

func none(reason string) Row { return Row{Sites: []Site{}, None: reason} }

// noneAfter is a none from a complete search: the reason, and what was
// searched (the row's candidates in general terms and the functions the
// search covered).
func noneAfter(reason, searched string) Row {
	return Row{Sites: []Site{}, None: reason, Searched: searched}
}

// rowOf makes a row from sites, the first one primary.
func rowOf(sites []Site, noneReason string) Row {
	if len(sites) == 0 {
		return none(noneReason)
	}
	sites[0].Primary = true
	return Row{Sites: sites}
}
