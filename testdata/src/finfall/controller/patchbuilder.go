package controller

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// builderFinalizer holds a Service until its ConfigMaps are gone.
const builderFinalizer = "finfall.example.com/configmaps" // want "BuilderReconciler/finalizer-const"

// BuilderReconciler keeps a finalizer on Services through a syncer shared
// by kinds: it is handed the object as a client.Object and whether it is
// being deleted as a bool, builds JSON patches of the finalizer list in
// helpers that return them marshalled, and sends them in another helper.
// The deletion branch is the syncer's if on that bool.
type BuilderReconciler struct {
	client.Client
	syncer *patchSyncer
}

// Reconcile hands the Service to the syncer.
func (r *BuilderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BuilderReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "BuilderReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.syncer.sync(ctx, &svc, svc.DeletionTimestamp != nil, r) // want "BuilderReconciler/requeue-error"
}

// clean deletes the Service's ConfigMaps.
func (r *BuilderReconciler) clean(ctx context.Context, obj client.Object) error { // want "BuilderReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(obj.GetNamespace()), client.MatchingLabels{"finfall.example.com/service": obj.GetName()})
}

// cleaner does the work before the finalizer goes.
type cleaner interface {
	clean(ctx context.Context, obj client.Object) error
}

// patchSyncer adds the finalizer to an object, or cleans up and removes it
// when the object is being deleted.
type patchSyncer struct {
	c client.Client
}

// sync cleans up and removes the finalizer when the object is being
// deleted, and adds it otherwise.
func (s *patchSyncer) sync(ctx context.Context, obj client.Object, deleting bool, cl cleaner) error {
	if deleting {
		if err := cl.clean(ctx, obj); err != nil {
			return err
		}
		patch, err := removePatch(obj.GetFinalizers(), builderFinalizer)
		if err != nil || patch == nil {
			return err
		}
		return s.send(ctx, obj, patch)
	}
	patch, err := addPatch(obj.GetFinalizers(), builderFinalizer)
	if err != nil {
		return err
	}
	if patch == nil {
		return nil
	}
	return s.send(ctx, obj, patch)
}

// send applies a JSON patch to the object.
func (s *patchSyncer) send(ctx context.Context, obj client.Object, patch []byte) error {
	return s.c.Patch(ctx, obj, client.RawPatch(types.JSONPatchType, patch))
}

// addPatch is the JSON patch adding a finalizer, nil when it is there.
func addPatch(finalizers []string, name string) ([]byte, error) {
	for _, f := range finalizers {
		if f == name {
			return nil, nil
		}
	}
	return json.Marshal([]map[string]any{{"op": "add", "path": "/metadata/finalizers/-", "value": name}}) // want "BuilderReconciler/finalizer-add"
}

// removePatch is the JSON patch removing a finalizer, nil when it is not
// there.
func removePatch(finalizers []string, name string) ([]byte, error) {
	for i, f := range finalizers {
		if f == name {
			return json.Marshal([]map[string]any{{"op": "remove", "path": fmt.Sprintf("/metadata/finalizers/%d", i)}}) // want "BuilderReconciler/finalizer-remove"
		}
	}
	return nil, nil
}

// SetupBuilder registers the reconciler for Services.
func SetupBuilder(mgr ctrl.Manager) error {
	r := &BuilderReconciler{Client: mgr.GetClient(), syncer: &patchSyncer{c: mgr.GetClient()}}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("builder").Complete(r)
}
