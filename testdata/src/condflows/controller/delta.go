package controller

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "example.com/fixtures/condflows/api/v1"
)

// DeltaReconciler reconciles Deltas.
type DeltaReconciler struct {
	client.Client
}

// conditionOptions carry a condition's type and status to the setter.
type conditionOptions struct {
	conditionType string
	status        metav1.ConditionStatus
	reason        string
}

// readyOptions are the options of a Ready condition.
func readyOptions(reason string) conditionOptions {
	return conditionOptions{conditionType: v1.DeltaReady, status: metav1.ConditionTrue, reason: reason}
}

// degradedOptions are the options of a Degraded condition.
func degradedOptions(reason string) conditionOptions {
	o := conditionOptions{status: metav1.ConditionTrue, reason: reason}
	o.conditionType = v1.DeltaDegraded
	return o
}

// archivedOptions are the options of an Archived condition.
func archivedOptions() conditionOptions {
	return conditionOptions{conditionType: v1.DeltaArchived, status: metav1.ConditionFalse, reason: "Kept"}
}

// setCondition sets the condition the options describe.
func setCondition(obj *v1.Delta, o conditionOptions) {
	apimeta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: o.conditionType, Status: o.status, Reason: o.reason})
}

// setAll sets the conditions of a list of options, one at a time.
func setAll(obj *v1.Delta, opts []conditionOptions) {
	if len(opts) == 0 {
		return
	}
	setCondition(obj, opts[0])
	setAll(obj, opts[1:])
}

// Reconcile marks the Delta through options.
func (r *DeltaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DeltaReconciler/reconcile-entry"
	var obj v1.Delta
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "DeltaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.Status.Phase == "Failed" {
		setCondition(&obj, degradedOptions("Failed")) // want "DeltaReconciler/condition-set:Degraded"
	} else {
		setAll(&obj, []conditionOptions{readyOptions("Running")}) // want "DeltaReconciler/condition-set:Ready"
	}
	// Decoy: options built and only logged.
	log.FromContext(ctx).Info("archive", "type", archivedOptions().conditionType)

	if err := r.Status().Update(ctx, &obj); err != nil { // want "DeltaReconciler/write-always"
		return ctrl.Result{}, err // want "DeltaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Deltas.
func (r *DeltaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Delta{}).Complete(r)
}
