// Package controller holds two reconcilers. The CrateReconciler works on
// its Crate through a wrapper that embeds it beside the settings read for
// it: the finalizer added to and removed from the wrapper is the Crate's.
// Its status keeps conditions and a list of actions shaped like them, each
// set by a helper handed the status: only the conditions are condition
// types. Its pass ends by saving the status, which a helper marks with the
// clock's time: that return is the success return, and the main work's
// failure is the return before it. The ShelfReconciler reads its Shelf
// through a fetcher (shelf.go).
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/wrappedkind/api/v1"
)

// want-none "CrateReconciler/requeue-success" "CrateReconciler/interval-trace"

const crateFinalizer = "wrappedkind.example.com/crate" // want "CrateReconciler/finalizer-const"

// crateWithSettings is a Crate with the settings read for it.
type crateWithSettings struct {
	*v1.Crate
	Settings map[string]string
}

// CrateReconciler packs each Crate into a ConfigMap.
type CrateReconciler struct {
	client.Client
	Clock clock.PassiveClock
}

// Reconcile packs the Crate, or releases it when it is being deleted.
func (r *CrateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CrateReconciler/reconcile-entry"
	crate := &v1.Crate{}
	if err := r.Get(ctx, req.NamespacedName, crate); err != nil { // want "CrateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w := &crateWithSettings{Crate: crate, Settings: map[string]string{"key": "crate"}}
	if !w.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.release(ctx, w)
	}
	if !controllerutil.ContainsFinalizer(w, crateFinalizer) {
		controllerutil.AddFinalizer(w, crateFinalizer) // want "CrateReconciler/finalizer-add"
		if err := r.Update(ctx, w.Crate); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.pack(ctx, crate); err != nil {
		recordAction(&crate.Status, v1.ActionPack, "Failed")
		return ctrl.Result{}, err // want "CrateReconciler/requeue-error"
	}
	recordAction(&crate.Status, v1.ActionPack, "Done")
	setCondition(&crate.Status, v1.CratePacked, r.Clock) // want "CrateReconciler/condition-set:Packed"
	return ctrl.Result{}, r.saveStatus(ctx, crate)
}

// pack writes the Crate's name into its ConfigMap.
func (r *CrateReconciler) pack(ctx context.Context, crate *v1.Crate) error {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, client.ObjectKey{Namespace: crate.Namespace, Name: crate.Name + "-crate"}, &cm); err != nil {
		return err
	}
	want := "packed:" + crate.Name
	if cm.Data["crate"] == want { // want "CrateReconciler/drift:compare"
		return nil
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["crate"] = want
	return r.Update(ctx, &cm) // want "CrateReconciler/drift:apply"
}

// release deletes the Crate's ConfigMap and lets the Crate go.
func (r *CrateReconciler) release(ctx context.Context, w *crateWithSettings) error { // want "CrateReconciler/finalizer-cleanup"
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-crate"}}
	if err := r.Delete(ctx, cm); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	controllerutil.RemoveFinalizer(w, crateFinalizer) // want "CrateReconciler/finalizer-remove"
	return r.Update(ctx, w.Crate)
}

// saveStatus marks the Crate ready and saves its status.
func (r *CrateReconciler) saveStatus(ctx context.Context, crate *v1.Crate) error {
	markCondition(crate, v1.CrateReady, r.Clock) // want "CrateReconciler/condition-set:Ready"
	return r.Status().Update(ctx, crate)         // want "CrateReconciler/write-always"
}

// markCondition sets a condition of the Crate, stamped with the clock.
func markCondition(crate *v1.Crate, t v1.ConditionType, c clock.PassiveClock) {
	now := metav1.NewTime(c.Now())
	for i := range crate.Status.Conditions {
		if crate.Status.Conditions[i].Type == t {
			crate.Status.Conditions[i].Status = metav1.ConditionTrue
			return
		}
	}
	crate.Status.Conditions = append(crate.Status.Conditions, v1.CrateCondition{Type: t, Status: metav1.ConditionTrue, LastTransitionTime: now})
}

// setCondition sets a condition in a Crate's status.
func setCondition(status *v1.CrateStatus, t v1.ConditionType, c clock.PassiveClock) {
	status.Conditions = append(status.Conditions, v1.CrateCondition{Type: t, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(c.Now())})
}

// recordAction records an action in a Crate's status: not a condition.
func recordAction(status *v1.CrateStatus, t v1.ActionType, outcome string) {
	for i := range status.Actions {
		if status.Actions[i].Type == t {
			status.Actions[i].Status = outcome
			return
		}
	}
	status.Actions = append(status.Actions, v1.CrateAction{Type: t, Status: outcome})
}

// SetupWithManager registers the reconciler for Crates.
func (r *CrateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Crate{}).Complete(r)
}
