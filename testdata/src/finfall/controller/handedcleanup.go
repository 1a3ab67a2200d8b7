package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "TemplateReconciler/finalizer-cleanup"

// trackedFinalizer holds an object until the controller that tracks it has
// let it go. Three controllers share it through one syncer.
const trackedFinalizer = "finfall.example.com/tracked-by" // want "QuotaReconciler/finalizer-const" "TemplateReconciler/finalizer-const" "ReplicaReconciler/finalizer-const" "NodeReconciler/finalizer-const"

// finalizerSyncer adds the finalizer to a live object and, once the object
// is being deleted, runs the release its caller hands it and removes the
// finalizer with a JSON patch. Each controller hands its own release, so
// the call of release runs one function per controller.
type finalizerSyncer struct {
	c client.Client
}

// sync reports whether it added the finalizer.
func (s finalizerSyncer) sync(ctx context.Context, obj client.Object, deleting bool, release func() error) (bool, error) {
	if !deleting {
		if slices.Contains(obj.GetFinalizers(), trackedFinalizer) {
			return false, nil
		}
		return true, s.add(ctx, obj)
	}
	if err := release(); err != nil {
		return false, err
	}
	data, err := deletePatch(obj.GetFinalizers())
	if err != nil || data == nil {
		return false, err
	}
	return false, s.c.Patch(ctx, obj, client.RawPatch(types.JSONPatchType, data))
}

// add appends the finalizer with a JSON patch of obj, an object its
// caller was handed in turn.
func (s finalizerSyncer) add(ctx context.Context, obj client.Object) error {
	data, err := json.Marshal([]map[string]any{{"op": "add", "path": "/metadata/finalizers/-", "value": trackedFinalizer}}) // want "QuotaReconciler/finalizer-add" "TemplateReconciler/finalizer-add" "ReplicaReconciler/finalizer-add" "NodeReconciler/finalizer-add"
	if err != nil {
		return err
	}
	return s.c.Patch(ctx, obj, client.RawPatch(types.JSONPatchType, data))
}

// deletePatch is the JSON patch that drops the finalizer where it stands,
// or nil when the object does not carry it. It builds the patch from map
// literals of its own: it computes a value and changes nothing.
func deletePatch(finalizers []string) ([]byte, error) {
	for i, f := range finalizers {
		if f != trackedFinalizer {
			continue
		}
		at := fmt.Sprintf("/metadata/finalizers/%d", i)
		return json.Marshal([]map[string]any{
			{"op": "test", "path": at, "value": f},
			{"op": "remove", "path": at}, // want "QuotaReconciler/finalizer-remove" "TemplateReconciler/finalizer-remove" "ReplicaReconciler/finalizer-remove" "NodeReconciler/finalizer-remove"
		})
	}
	return nil, nil
}

// QuotaReconciler hands the syncer a closure that deletes the quota's
// LimitRanges: on its path the syncer's call of release runs only that.
type QuotaReconciler struct {
	client.Client
}

// Reconcile syncs the finalizer of a ResourceQuota.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "QuotaReconciler/reconcile-entry"
	q := &corev1.ResourceQuota{}
	if err := r.Get(ctx, req.NamespacedName, q); err != nil { // want "QuotaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, err := finalizerSyncer{r.Client}.sync(ctx, q, !q.DeletionTimestamp.IsZero(), func() error { return r.releaseQuota(ctx, q) })
	return ctrl.Result{}, err // want "QuotaReconciler/requeue-error"
}

// releaseQuota deletes the LimitRanges made for the quota.
func (r *QuotaReconciler) releaseQuota(ctx context.Context, q *corev1.ResourceQuota) error { // want "QuotaReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.LimitRange{}, client.InNamespace(q.Namespace), client.MatchingLabels{"quota": q.Name})
}

// TemplateReconciler has nothing to release: the closure it hands the
// syncer does nothing, and the finalizer goes with no cleanup.
type TemplateReconciler struct {
	client.Client
}

// Reconcile syncs the finalizer of a PodTemplate.
func (r *TemplateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TemplateReconciler/reconcile-entry"
	t := &corev1.PodTemplate{}
	if err := r.Get(ctx, req.NamespacedName, t); err != nil { // want "TemplateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, err := finalizerSyncer{r.Client}.sync(ctx, t, t.DeletionTimestamp != nil, func() error { return nil })
	return ctrl.Result{}, err // want "TemplateReconciler/requeue-error"
}

// ReplicaReconciler hands the syncer a method value.
type ReplicaReconciler struct {
	client.Client
	name types.NamespacedName
}

// Reconcile syncs the finalizer of a ReplicationController.
func (r *ReplicaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReplicaReconciler/reconcile-entry"
	rc := &corev1.ReplicationController{}
	if err := r.Get(ctx, req.NamespacedName, rc); err != nil { // want "ReplicaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.name = req.NamespacedName
	_, err := finalizerSyncer{r.Client}.sync(ctx, rc, !rc.DeletionTimestamp.IsZero(), r.releasePods)
	return ctrl.Result{}, err // want "ReplicaReconciler/requeue-error"
}

// releasePods deletes the pods the ReplicationController labelled.
func (r *ReplicaReconciler) releasePods() error { // want "ReplicaReconciler/finalizer-cleanup"
	return r.DeleteAllOf(context.Background(), &corev1.Pod{}, client.InNamespace(r.name.Namespace), client.MatchingLabels{"replicas": r.name.Name})
}

// NodeReconciler builds the removal patch itself and hands it to drain,
// which deletes the Node's pods before it sends the patch: a call handed
// the removal that does work of its own is the cleanup, not only the
// removal persisted.
type NodeReconciler struct {
	client.Client
}

// Reconcile keeps the finalizer on a live Node and drains a deleted one.
func (r *NodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NodeReconciler/reconcile-entry"
	n := &corev1.Node{}
	if err := r.Get(ctx, req.NamespacedName, n); err != nil { // want "NodeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if n.DeletionTimestamp.IsZero() {
		if slices.Contains(n.Finalizers, trackedFinalizer) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, finalizerSyncer{r.Client}.add(ctx, n) // want "NodeReconciler/requeue-error"
	}
	data, err := deletePatch(n.Finalizers)
	if err != nil || data == nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.drain(ctx, n, data)
}

// drain deletes the pods bound to the Node, then sends the patch that
// drops its finalizer.
func (r *NodeReconciler) drain(ctx context.Context, n *corev1.Node, patch []byte) error { // want "NodeReconciler/finalizer-cleanup"
	if err := r.DeleteAllOf(ctx, &corev1.Pod{}, client.MatchingFields{"spec.nodeName": n.Name}); err != nil {
		return err
	}
	return r.Patch(ctx, n, client.RawPatch(types.JSONPatchType, patch))
}

// SetupHanded registers the four reconcilers.
func SetupHanded(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ResourceQuota{}).Complete(&QuotaReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.PodTemplate{}).Complete(&TemplateReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ReplicationController{}).Complete(&ReplicaReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Node{}).Complete(&NodeReconciler{Client: mgr.GetClient()})
}
