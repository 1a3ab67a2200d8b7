// Package controller holds a reconciler that writes through a shared
// patch helper: the helper hands a function to a retry loop of a library
// (wait.ExponentialBackoff) and writes the object's status or the object
// itself as a flag its caller hands it says. The flag reaches the write
// through the closure, which captures it; what the caller hands is not
// followed, nor whether the library runs the function, so the write is
// made on every pass only if both go its way: not settled, rather than
// "never on every pass".
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// StampReconciler stamps each ConfigMap with the time it was last seen.
type StampReconciler struct{ client.Client }

// Reconcile stamps the ConfigMap through the patch helper.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.patch(ctx, client.ObjectKeyFromObject(&cm), true) // want "requeue-error"
}

// patch reads the ConfigMap afresh and stamps it, retrying with a backoff.
// With onLabels it stamps a label, else an annotation.
func (r *StampReconciler) patch(ctx context.Context, key client.ObjectKey, onLabels bool) error {
	backoff := wait.Backoff{Steps: 3, Duration: 100 * time.Millisecond}
	return wait.ExponentialBackoff(backoff, func() (bool, error) {
		var latest corev1.ConfigMap
		if err := r.Get(ctx, key, &latest); err != nil {
			return false, err
		}
		before := client.MergeFrom(latest.DeepCopy())
		var err error
		if onLabels {
			latest.Labels = map[string]string{"stamped": "yes"}
			err = r.Patch(ctx, &latest, before) // want "write-unsettled"
		} else {
			latest.Annotations = map[string]string{"stamped": time.Now().Format(time.RFC3339)}
			err = r.Update(ctx, &latest) // want "write-unsettled"
		}
		if err != nil {
			return false, nil
		}
		return true, nil
	})
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
