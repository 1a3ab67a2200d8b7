package controller

import (
	"context"
	"encoding/json"

	jsonpatch "github.com/evanphx/json-patch/v5"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PatchDiffReconciler/finalizer-const" "PatchDiffReconciler/finalizer-add" "PatchDiffReconciler/finalizer-cleanup" "PatchDiffReconciler/finalizer-remove" "PatchDiffReconciler/condition-types" "PatchDiffReconciler/requeue-success" "PatchDiffReconciler/interval-trace"

// PatchDiffReconciler copies a ConfigMap's data into the Secret of the same
// name by a merge patch between the live Secret and the desired one, sent
// only when it is not empty. The empty patch ends the pass: a difference
// of two states found empty, not a wait for a value to appear.
type PatchDiffReconciler struct {
	client.Client
}

// Reconcile copies the data.
func (r *PatchDiffReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PatchDiffReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "PatchDiffReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var live corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &live); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	desired := live.DeepCopy()
	desired.StringData = nil
	desired.Data = map[string][]byte{}
	for k, v := range cm.Data {
		desired.Data[k] = []byte(v)
	}
	p, err := mergePatch(&live, desired)
	if err != nil {
		return ctrl.Result{}, err
	}
	if len(p) == 0 { // want "PatchDiffReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.Patch(ctx, &live, client.RawPatch(types.MergePatchType, p)) // want "PatchDiffReconciler/requeue-error" "PatchDiffReconciler/drift:apply"
}

// mergePatch is the merge patch from one Secret to another, empty when
// they agree.
func mergePatch(from, to *corev1.Secret) ([]byte, error) {
	a, err := json.Marshal(from)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(to)
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.CreateMergePatch(a, b)
	if err != nil || string(p) == "{}" {
		return nil, err
	}
	return p, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *PatchDiffReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("patchdiff").For(&corev1.ConfigMap{}).Complete(r)
}
