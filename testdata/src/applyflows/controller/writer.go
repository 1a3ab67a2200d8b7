package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/requeue-success" "MirrorReconciler/interval-trace"

// configWriter writes ConfigMaps; the tree implements it once, over the
// client.
type configWriter interface {
	Write(ctx context.Context, cm *corev1.ConfigMap) error
}

// clientWriter is the tree's one configWriter.
type clientWriter struct {
	c client.Client
}

// Write updates the ConfigMap.
func (w clientWriter) Write(ctx context.Context, cm *corev1.ConfigMap) error {
	return w.c.Update(ctx, cm)
}

// MirrorReconciler keeps the "source" key of each Secret's mirror
// ConfigMap equal to the Secret's name when the live value differs (a
// difference described as a string, "" when there is none):
// through its writer interface for an opaque Secret, else with an update
// of its own (two ways of applying the difference).
type MirrorReconciler struct {
	client.Client
	Writer configWriter
}

// Reconcile brings one mirror up to date.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var live corev1.ConfigMap
	if err := r.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name + "-mirror"}, &live); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if unstamped(&live) { // want "MirrorReconciler/drift:compare"
		live.Annotations = map[string]string{"applyflows.example.com/stamp": "mirror"}
		return ctrl.Result{}, r.Update(ctx, &live) // want "MirrorReconciler/drift:apply"
	}
	if diff := diffOf(live.Data["source"], s.Name); diff != "" { // want "MirrorReconciler/drift:compare"
		live.Data["source"] = s.Name
		var err error
		switch s.Type {
		case corev1.SecretTypeOpaque:
			err = r.Writer.Write(ctx, &live) // want "MirrorReconciler/drift:apply"
		default:
			err = r.Update(ctx, &live) // want "MirrorReconciler/drift:apply"
		}
		return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// unstamped says whether a mirror lacks the stamp that records what made
// it: one that records nothing differs from what is wanted.
func unstamped(cm *corev1.ConfigMap) bool {
	stamp := cm.Annotations["applyflows.example.com/stamp"]
	return stamp == ""
}

// diffOf describes how a live value differs from the one wanted: "" when
// they are equal.
func diffOf(live, want string) string {
	if live == want {
		return ""
	}
	return live + " -> " + want
}

// SetupWithManager registers the reconciler for Secrets, writing with the
// manager's client.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Writer = clientWriter{c: mgr.GetClient()}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("mirror").Complete(r)
}
