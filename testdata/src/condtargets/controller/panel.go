// Package controller holds a reconciler whose condition helpers are shared
// with objects that are not its own: a setter taking any status, handed
// a Plate's; a setter taking a Panel, handed one made on the spot that
// nothing writes; a function off the reconcile path whose closure the
// path may run, through a helper that runs every function value handed to
// it; and a status value a helper builds apart from the Panel and hands back
// as its named result, patched onto it.
package controller

import (
	"context"
	"encoding/json"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condtargets/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// LegacySetter is any object that keeps legacy conditions.
type LegacySetter interface {
	GetLegacyConditions() []metav1.Condition
	SetLegacyConditions(cs []metav1.Condition)
}

// Conditioner is any status that sets conditions.
type Conditioner interface {
	SetCondition(c metav1.Condition)
}

// Marker marks a Panel's conditions: a plugin the tree only declares (no
// type of the tree implements it), so what it sets is not read.
type Marker interface {
	Mark(conds *[]metav1.Condition)
}

// PanelReconciler reconciles Panels.
type PanelReconciler struct {
	client.Client
	Plugin Marker
}

// Reconcile marks the Panel ready and synced, and the Plate of the same
// name complete.
func (r *PanelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var obj v1.Panel
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "reread"
		if apierrors.IsNotFound(err) {
			// Decoy: a Panel made for the deleted one, never written.
			setPanelCondition(&v1.Panel{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}}, metav1.Condition{Type: v1.PanelGone, Status: metav1.ConditionFalse, Reason: "Deleted"})
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	// Decoy: the Plate is handed the helper that sets Complete.
	var plate v1.Plate
	if err := r.Get(ctx, types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}, &plate); err == nil {
		markComplete(&plate.Status)
		if err := r.Status().Update(ctx, &plate); err != nil {
			return ctrl.Result{}, err
		}
	}
	// A status built apart, handed back by a helper and sent as a merge
	// patch: its conditions are the Panel's.
	raw, err := json.Marshal(map[string]any{"status": appliedStatus()})
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Status().Patch(ctx, &obj, client.RawPatch(types.MergePatchType, raw)); err != nil { // want "write-always"
		return ctrl.Result{}, err
	}
	markReady(&obj.Status)
	setConditions(&obj.Status, metav1.Condition{Type: v1.PanelHealthy, Status: metav1.ConditionTrue, Reason: v1.PanelFine}) // want "condition-set:Healthy"
	// Decoys: the legacy list is not Status.Conditions.
	if obj.Status.Deprecated != nil {
		meta.SetStatusCondition(&obj.Status.Deprecated.Legacy.Conditions, metav1.Condition{Type: v1.PanelLegacyReady, Status: metav1.ConditionTrue, Reason: v1.PanelFine})
	}
	setLegacy(&obj, v1.PanelLegacySynced)
	if r.Plugin != nil {
		r.Plugin.Mark(&obj.Status.Conditions)
	}
	meta.SetStatusCondition(&obj.Status.Conditions, summarise(v1.PanelPartsReady, summaryType(v1.PanelSummary)))
	h := &panelHandler{panel: &obj}
	h.markSeen()
	setPanelCondition(&obj, metav1.Condition{Type: v1.PanelSynced, Status: metav1.ConditionTrue, Reason: "Synced"}) // want "condition-set:Synced"
	if err := patchPanel(ctx, r.Client, &obj, func(p *v1.Panel) { p.Labels = map[string]string{"panel": "seen"} }); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, r.Status().Update(ctx, &obj) // want "write-always"
}

// appliedStatus builds the status the reconcile patches onto the Panel.
func appliedStatus() (status *v1.PanelStatus) {
	status = &v1.PanelStatus{}
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{Type: v1.PanelApplied, Status: metav1.ConditionTrue, Reason: v1.PanelFine}) // want "condition-set:Applied"
	return status
}

// markReady sets Ready on any status.
func markReady(c Conditioner) {
	c.SetCondition(metav1.Condition{Type: v1.PanelReady, Status: metav1.ConditionTrue, Reason: "Done"}) // want "condition-set:Ready"
}

// markComplete sets Complete on any status.
func markComplete(c Conditioner) {
	c.SetCondition(metav1.Condition{Type: v1.PlateComplete, Status: metav1.ConditionTrue, Reason: "Done"})
}

// setLegacy sets one legacy condition on any object that keeps them.
func setLegacy(to LegacySetter, t string) {
	cs := to.GetLegacyConditions()
	meta.SetStatusCondition(&cs, metav1.Condition{Type: t, Status: metav1.ConditionTrue, Reason: v1.PanelFine})
	to.SetLegacyConditions(cs)
}

// summaryOptions say how a summary is made.
type summaryOptions struct {
	target string
}

// summaryOption changes how a summary is made.
type summaryOption interface {
	applyTo(o *summaryOptions)
}

// summaryType gives a summary another type than its source's.
type summaryType string

func (t summaryType) applyTo(o *summaryOptions) { o.target = string(t) }

// summarise makes a summary condition of the source type, or of the type
// an option gives it.
func summarise(source string, opts ...summaryOption) metav1.Condition {
	o := &summaryOptions{target: source}
	for _, opt := range opts {
		opt.applyTo(o)
	}
	return metav1.Condition{Type: o.target, Status: metav1.ConditionTrue, Reason: v1.PanelFine}
}

// setConditions sets each condition it is handed: their Status and Reason
// are no types.
func setConditions(s *v1.PanelStatus, cs ...metav1.Condition) {
	for _, c := range cs {
		meta.SetStatusCondition(&s.Conditions, c)
	}
}

// panelHandler holds the Panel a pass works on.
type panelHandler struct {
	panel *v1.Panel
}

// markSeen sets Seen on the Panel the handler holds.
func (h *panelHandler) markSeen() {
	meta.SetStatusCondition(&h.panel.Status.Conditions, metav1.Condition{Type: v1.PanelSeen, Status: metav1.ConditionTrue, Reason: v1.PanelFine}) // want "condition-set:Seen"
}

// setPanelCondition sets a condition on a Panel.
func setPanelCondition(p *v1.Panel, c metav1.Condition) {
	meta.SetStatusCondition(&p.Status.Conditions, c)
}

// patchPanel runs mutate on a Panel and patches it.
func patchPanel(ctx context.Context, c client.Client, p *v1.Panel, mutate func(*v1.Panel)) error {
	base := p.DeepCopyObject().(*v1.Panel)
	mutate(p)
	return c.Patch(ctx, p, client.MergeFrom(base)) // want "write-always"
}

// Sweep marks a Panel stale and clears its annotations; nothing on the
// reconcile path calls it, but its closure goes to patchPanel as the
// reconcile's does, so the call graph says the reconcile may run it: what
// it sets is not settled, never certain.
func Sweep(ctx context.Context, c client.Client, key types.NamespacedName) error {
	var stale v1.Panel
	if err := c.Get(ctx, key, &stale); err != nil {
		return err
	}
	setPanelCondition(&stale, metav1.Condition{Type: v1.PanelStale, Status: metav1.ConditionTrue, Reason: "Swept"})
	return patchPanel(ctx, c, &stale, func(p *v1.Panel) {
		p.Annotations = nil
		markStale(p)
	})
}

// markStale sets Stale on a Panel: only Sweep's closure calls it.
func markStale(p *v1.Panel) {
	meta.SetStatusCondition(&p.Status.Conditions, metav1.Condition{Type: v1.PanelStale, Status: metav1.ConditionTrue, Reason: "Swept"})
}

// SetupWithManager registers the reconciler.
func (r *PanelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Panel{}).Complete(r)
}
