package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The reconcilers below end with one return of an interval and the pass's
// error, under no test: controller-runtime retries with backoff where the
// error is set and requeues after the interval where it is nil, so that
// return is both the failure and the success requeue (never "event-driven
// only"); where a test above it has found the error nil, it is only the
// success requeue.

// TailReconciler hands back the error of its one piece of work.
type TailReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *TailReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}

// Reconcile labels the Service and comes back after a minute.
func (r *TailReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TailReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "TailReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.label(ctx, &svc)
	return ctrl.Result{RequeueAfter: time.Minute}, err // want "TailReconciler/requeue-error" "TailReconciler/requeue-success" "TailReconciler/trace:return" "TailReconciler/trace:constant"
} // want-none "TailReconciler/condition-types" "TailReconciler/finalizer-const" "TailReconciler/finalizer-add" "TailReconciler/finalizer-cleanup" "TailReconciler/finalizer-remove" "TailReconciler/drift"

func (r *TailReconciler) label(ctx context.Context, svc *corev1.Service) error {
	svc.Labels = map[string]string{"tailed": "true"}
	return r.Update(ctx, svc) // want "TailReconciler/write-always"
}

// PhaseReconciler sets its error in one branch, and leaves it nil past
// it; the interval depends on it.
type PhaseReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *PhaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// Reconcile stamps an unstamped Secret.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var err error
	if s.Labels["stamped"] == "" { // want "PhaseReconciler/drift:compare"
		s.Labels = map[string]string{"stamped": "true"}
		err = r.Update(ctx, &s) // want "PhaseReconciler/drift:apply"
	}
	return ctrl.Result{RequeueAfter: untilNext(err)}, err // want "PhaseReconciler/requeue-error" "PhaseReconciler/requeue-success" "PhaseReconciler/trace:return"
} // want-none "PhaseReconciler/condition-types" "PhaseReconciler/finalizer-const" "PhaseReconciler/finalizer-add" "PhaseReconciler/finalizer-cleanup" "PhaseReconciler/finalizer-remove"

// untilNext is how long the next pass waits.
func untilNext(err error) time.Duration {
	if err != nil {
		return 5 * time.Second
	}
	return 10 * time.Minute
}

// CheckedReconciler returns its error where it is set, before the final
// return hands back the same variable, nil there.
type CheckedReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *CheckedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}

// Reconcile labels the ServiceAccount and comes back after an hour.
func (r *CheckedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CheckedReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	err := r.Get(ctx, req.NamespacedName, &sa) // want "CheckedReconciler/reread"
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sa.Labels = map[string]string{"checked": "true"}
	err = r.Update(ctx, &sa) // want "CheckedReconciler/write-always"
	if err != nil {
		return ctrl.Result{}, err // want "CheckedReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: time.Hour}, err // want "CheckedReconciler/requeue-success" "CheckedReconciler/trace:return" "CheckedReconciler/trace:constant"
} // want-none "CheckedReconciler/condition-types" "CheckedReconciler/finalizer-const" "CheckedReconciler/finalizer-add" "CheckedReconciler/finalizer-cleanup" "CheckedReconciler/finalizer-remove" "CheckedReconciler/drift"
