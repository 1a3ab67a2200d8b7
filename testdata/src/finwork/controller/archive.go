package controller

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ArchiveReconciler/finalizer-cleanup" "ArchiveReconciler/condition-types" "ArchiveReconciler/requeue-success" "ArchiveReconciler/interval-trace" "ArchiveReconciler/drift"

// archiveFinalizer holds a ServiceAccount this controller archives.
const archiveFinalizer = "finwork.example.com/archive" // want "ArchiveReconciler/finalizer-const"

// ArchiveReconciler archives a ServiceAccount's Secrets into ConfigMaps.
// The archived copy of each Secret is stamped with a finalizer of its own
// through metav1.Object, asserted from a runtime.Object copy: another
// object's finalizers, not the ServiceAccount's.
type ArchiveReconciler struct {
	client.Client
}

// Reconcile archives the Secrets of a ServiceAccount.
func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ArchiveReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "ArchiveReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.DeletionTimestamp != nil {
		if controllerutil.RemoveFinalizer(&sa, archiveFinalizer) { // want "ArchiveReconciler/finalizer-remove"
			return ctrl.Result{}, r.Update(ctx, &sa)
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(&sa, archiveFinalizer) { // want "ArchiveReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &sa)
	}
	for _, ref := range sa.Secrets {
		var s corev1.Secret
		if err := r.Get(ctx, client.ObjectKey{Namespace: sa.Namespace, Name: ref.Name}, &s); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		cm, err := archive(&s)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, cm); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err // want "ArchiveReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// archive stores a copy of an object in a ConfigMap, its copy stamped with
// a finalizer of the archive's.
func archive(obj runtime.Object) (*corev1.ConfigMap, error) {
	cp := obj.DeepCopyObject()
	meta, ok := cp.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no metadata", obj)
	}
	meta.SetFinalizers(append(meta.GetFinalizers(), "finwork.example.com/archived")) // decoy: the copy's finalizers
	data, err := json.Marshal(cp)
	if err != nil {
		return nil, err
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: meta.GetNamespace(), Name: meta.GetName() + "-archive"},
		Data:       map[string]string{"object": string(data)},
	}, nil
}

// ArchiveAccount archives a ServiceAccount itself (a tool's, not the
// reconciler's): the program hands archive both kinds.
func ArchiveAccount(sa *corev1.ServiceAccount) (*corev1.ConfigMap, error) {
	return archive(sa)
}

// SetupArchive registers the reconciler for ServiceAccounts.
func SetupArchive(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(&ArchiveReconciler{Client: mgr.GetClient()})
}
