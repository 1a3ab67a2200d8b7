package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The reconcilers below reach the library through its adapters: a
// function converted to reconcile.Func, an object reconciler made a
// reconciler by reconcile.AsReconciler (the library reads the object by
// the key and hands it on), and the typed builder.

// NamespaceLabeller labels Namespaces through a method converted to
// reconcile.Func. Its Reconcile is a decoy: it is not what is registered.
type NamespaceLabeller struct {
	client.Client
}

// SetupWithManager registers the Namespace controller.
func (l *NamespaceLabeller) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("namespaces").
		For(&corev1.Namespace{}).
		Complete(reconcile.Func(l.labelNamespace))
}

// labelNamespace labels one Namespace once.
func (l *NamespaceLabeller) labelNamespace(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "NamespaceLabeller/reconcile-entry"
	var ns corev1.Namespace
	if err := l.Get(ctx, req.NamespacedName, &ns); err != nil { // want "NamespaceLabeller/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if ns.Labels[seenLabel] == "" { // want "NamespaceLabeller/drift:compare"
		ns.Labels = map[string]string{seenLabel: "yes"}
		if err := l.Update(ctx, &ns); err != nil { // want "NamespaceLabeller/drift:apply"
			return reconcile.Result{}, err // want "NamespaceLabeller/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// Reconcile is the decoy: it deletes the Namespace.
func (l *NamespaceLabeller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var ns corev1.Namespace
	if err := l.Get(ctx, req.NamespacedName, &ns); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	return reconcile.Result{}, l.Delete(ctx, &ns)
}

// ControllerLabeller labels ReplicationControllers; it is registered with
// the typed builder.
type ControllerLabeller struct {
	client.Client
}

// SetupWithManager registers the ReplicationController controller.
func (r *ControllerLabeller) SetupWithManager(mgr ctrl.Manager) error {
	return builder.TypedControllerManagedBy[reconcile.Request](mgr).
		Named("replicationcontrollers").
		For(&corev1.ReplicationController{}).
		Complete(r)
}

// Reconcile labels one ReplicationController once.
func (r *ControllerLabeller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "ControllerLabeller/reconcile-entry"
	var rc corev1.ReplicationController
	if err := r.Get(ctx, req.NamespacedName, &rc); err != nil { // want "ControllerLabeller/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if rc.Labels[seenLabel] == "" { // want "ControllerLabeller/drift:compare"
		rc.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &rc); err != nil { // want "ControllerLabeller/drift:apply"
			return reconcile.Result{}, err // want "ControllerLabeller/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// VolumeLabeller labels PersistentVolumes; it is an object reconciler,
// which the library's adapter hands the volume it reads by the key. Its
// ConfigMap read is a decoy: by the volume's name, not the request's key.
type VolumeLabeller struct {
	client.Client
}

// SetupWithManager registers the PersistentVolume controller.
func (r *VolumeLabeller) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("persistentvolumes").
		For(&corev1.PersistentVolume{}).
		Complete(reconcile.AsReconciler(mgr.GetClient(), r)) // want "VolumeLabeller/reread"
}

// Reconcile labels one PersistentVolume once.
func (r *VolumeLabeller) Reconcile(ctx context.Context, pv *corev1.PersistentVolume) (reconcile.Result, error) { // want "VolumeLabeller/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, client.ObjectKey{Name: pv.Name}, &cm); client.IgnoreNotFound(err) != nil {
		return reconcile.Result{}, err
	}
	if pv.Labels[seenLabel] == "" { // want "VolumeLabeller/drift:compare"
		pv.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, pv); err != nil { // want "VolumeLabeller/drift:apply"
			return reconcile.Result{}, err // want "VolumeLabeller/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}
