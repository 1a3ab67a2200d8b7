package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "HandleReconciler/condition-types" "HandleReconciler/requeue-success" "HandleReconciler/interval-trace" "HandleReconciler/drift"

// volumeFrom, on a Pod, names the ConfigMap it mounts.
const volumeFrom = "handle.example.com/volume-from"

// handleFinalizer holds a ConfigMap until no Pod mounts it.
const handleFinalizer = "handle.example.com/release" // want "HandleReconciler/finalizer-const"

// objectWriter patches objects; the manager's client is wired in where the
// tree does not show, so no function of the tree implements it.
type objectWriter interface {
	Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error
}

// HandleReconciler keeps a finalizer on ConfigMaps. Its handleDelete runs
// on every pass: it adds the finalizer (through the writer) while the
// ConfigMap is not being deleted, so it is not itself the cleanup; on
// deletion it releases the Pods that mount the ConfigMap, whose only
// writes are the writer's, then forgets it and drops the finalizer.
type HandleReconciler struct {
	client.Reader
	writer  objectWriter
	mounted map[string]bool
}

// Reconcile looks at one ConfigMap.
func (r *HandleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HandleReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "HandleReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	result, err := r.handleDelete(ctx, &cm)
	if err != nil {
		return ctrl.Result{}, err // want "HandleReconciler/requeue-error"
	}
	if result != nil {
		return *result, nil
	}
	return ctrl.Result{}, nil
}

// handleDelete adds the finalizer, or, on deletion, runs the cleanup and
// removes it. It returns (nil, nil) when the ConfigMap is not being
// deleted and holds the finalizer.
func (r *HandleReconciler) handleDelete(ctx context.Context, cm *corev1.ConfigMap) (*ctrl.Result, error) {
	if cm.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(cm, handleFinalizer) {
			return nil, nil
		}
		before := cm.DeepCopy()
		controllerutil.AddFinalizer(cm, handleFinalizer) // want "HandleReconciler/finalizer-add"
		return nil, r.writer.Patch(ctx, cm, client.MergeFrom(before))
	}
	if !controllerutil.ContainsFinalizer(cm, handleFinalizer) {
		return &ctrl.Result{}, nil
	}
	released, err := r.releasePods(ctx, cm)
	if err != nil {
		return nil, err
	}
	if !released {
		return &ctrl.Result{Requeue: true}, nil
	}
	r.forget(cm.Name)
	before := cm.DeepCopy()
	controllerutil.RemoveFinalizer(cm, handleFinalizer) // want "HandleReconciler/finalizer-remove"
	return &ctrl.Result{}, r.writer.Patch(ctx, cm, client.MergeFrom(before))
}

// releasePods unmounts the ConfigMap from the Pods that name it; it
// reports whether none did.
func (r *HandleReconciler) releasePods(ctx context.Context, cm *corev1.ConfigMap) (bool, error) { // want "HandleReconciler/finalizer-cleanup"
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(cm.Namespace)); err != nil {
		return false, err
	}
	released := true
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.Annotations[volumeFrom] != cm.Name {
			continue
		}
		before := p.DeepCopy()
		delete(p.Annotations, volumeFrom)
		if err := r.writer.Patch(ctx, p, client.MergeFrom(before)); err != nil {
			return false, err
		}
		released = false
	}
	return released, nil
}

// forget drops what the reconciler keeps of a ConfigMap.
func (r *HandleReconciler) forget(name string) {
	delete(r.mounted, name)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *HandleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("handle").Complete(r)
}
