package controller

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PatchCheckReconciler/finalizer-const" "PatchCheckReconciler/finalizer-add" "PatchCheckReconciler/finalizer-cleanup" "PatchCheckReconciler/finalizer-remove" "PatchCheckReconciler/condition-types" "PatchCheckReconciler/requeue-success" "PatchCheckReconciler/interval-trace"

// PatchCheckReconciler keeps a Secret beside each Service, through a helper
// that writes whatever object it is handed (a client.Object) when a patch
// computed between the live copy and the mutated one is not empty: a
// comparison made by a library function ctrlcmp does not read, so the
// drift answer is not settled, never a none.
type PatchCheckReconciler struct {
	client.Client
}

// Reconcile keeps the Service's Secret.
func (r *PatchCheckReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PatchCheckReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "PatchCheckReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name}}
	err := ensure(ctx, r.Client, s, func() { s.StringData = map[string]string{"cluster-ip": svc.Spec.ClusterIP} })
	return ctrl.Result{}, err // want "PatchCheckReconciler/requeue-error"
}

// ensure creates obj, or updates it when mutate changes what the cluster
// holds.
func ensure(ctx context.Context, c client.Client, obj client.Object, mutate func()) error {
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); apierrors.IsNotFound(err) {
		mutate()
		return c.Create(ctx, obj)
	} else if err != nil {
		return err
	}
	existing := obj.DeepCopyObject()
	mutate()
	changed, err := patched(existing, obj)
	if err != nil || !changed {
		return err
	}
	return c.Update(ctx, obj) // want "PatchCheckReconciler/drift:unsettled" "PatchCheckReconciler/write-unsettled"
}

// patched reports whether the two-way merge patch from current to updated
// holds anything.
func patched(current, updated runtime.Object) (bool, error) {
	from, err := json.Marshal(current)
	if err != nil {
		return false, err
	}
	to, err := json.Marshal(updated)
	if err != nil {
		return false, err
	}
	p, err := strategicpatch.CreateTwoWayMergePatch(from, to, &corev1.Secret{})
	if err != nil {
		return false, err
	}
	return len(p) > 2, nil
}

// SetupWithManager registers the reconciler for Services.
func (r *PatchCheckReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Owns(&corev1.Secret{}).Complete(r)
}
