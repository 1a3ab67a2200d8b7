package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "ExpandReconciler/finalizer-const" "ExpandReconciler/finalizer-add" "ExpandReconciler/finalizer-cleanup" "ExpandReconciler/finalizer-remove" "ExpandReconciler/condition-types" "ExpandReconciler/requeue-success" "ExpandReconciler/interval-trace" "ExpandReconciler/drift"

// volumes grows the storage behind a Bundle; the program is handed an
// implementation at run time.
type volumes interface {
	Grow(ctx context.Context, name string, size int) error
}

// ExpandReconciler makes a Bundle's ConfigMap, then grows its volume and
// records that in the Bundle's status, handing back the error of both:
// the final return's failure is the main work's, not only the report's.
type ExpandReconciler struct {
	client.Client
	volumes volumes
}

// Reconcile looks at one Bundle.
func (r *ExpandReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExpandReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "ExpandReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-expand"}, Data: b.Spec.Data}
	if err := r.Create(ctx, cm); client.IgnoreAlreadyExists(err) != nil { // want "ExpandReconciler/write-always"
		return ctrl.Result{}, err
	}
	err := r.expand(ctx, b)
	return ctrl.Result{}, err // want "ExpandReconciler/requeue-error"
}

// expand grows the Bundle's volume and records it in its status.
func (r *ExpandReconciler) expand(ctx context.Context, b *v1.Bundle) error {
	if err := r.volumes.Grow(ctx, b.Name, len(b.Spec.Data)); err != nil {
		return err
	}
	b.Status.SeenVersion = "grown"
	return r.Status().Update(ctx, b) // want "ExpandReconciler/write-always"
}

// SetupWithManager registers the reconciler for Bundles.
func (r *ExpandReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("expand").For(&v1.Bundle{}).Complete(r)
}
