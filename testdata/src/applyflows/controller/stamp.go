package controller

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// hashAnnotation records on the copy the hash of what it was made from.
const hashAnnotation = "applyflows.example.com/hash"

// CopyReconciler keeps a ConfigMap copy of each Secret. It compares the
// hash of the copy it would make with the one the live copy records, and
// a helper of its own writes the copy when they differ. It first labels
// the Secret (a Secret's labels are its own to keep: that is drift too),
// through a function whose bool says it did, which is no comparison.
type CopyReconciler struct {
	client.Client
}

// Reconcile labels the Secret, then brings its copy up to date.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "CopyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	labelled, err := r.ensureLabel(ctx, &s)
	if err != nil {
		return ctrl.Result{}, err
	}
	if labelled {
		return ctrl.Result{}, nil
	}
	desired := copyOf(&s)
	var live corev1.ConfigMap
	if err := r.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: desired.Name}, &live); err != nil {
		return ctrl.Result{}, err
	}
	if desired.Annotations[hashAnnotation] == live.Annotations[hashAnnotation] { // want "CopyReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	desired.ResourceVersion = live.ResourceVersion
	return ctrl.Result{}, putCopy(ctx, r.Client, desired) // want "CopyReconciler/drift:apply" "CopyReconciler/requeue-error"
}

// ensureLabel labels the Secret with the name of its copy when it is not,
// and says whether it did.
func (r *CopyReconciler) ensureLabel(ctx context.Context, s *corev1.Secret) (bool, error) {
	want := s.Name + "-copy"
	if s.Labels["applyflows.example.com/copy"] == want { // want "CopyReconciler/drift:compare"
		return false, nil
	}
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels["applyflows.example.com/copy"] = want
	return true, r.Update(ctx, s) // want "CopyReconciler/drift:apply"
}

// copyOf is the copy of a Secret, annotated with the hash of its data.
func copyOf(s *corev1.Secret) *corev1.ConfigMap {
	h := sha256.New()
	data := map[string]string{}
	for k, v := range s.Data {
		data[k] = string(v)
		h.Write([]byte(k))
		h.Write(v)
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   s.Namespace,
			Name:        s.Name + "-copy",
			Annotations: map[string]string{hashAnnotation: hex.EncodeToString(h.Sum(nil))},
		},
		Data: data,
	}
}

// putCopy writes the copy.
func putCopy(ctx context.Context, c client.Client, cm *corev1.ConfigMap) error {
	return c.Update(ctx, cm)
}

// SetupCopy registers the reconciler for Secrets.
func SetupCopy(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("copy").Complete(&CopyReconciler{Client: mgr.GetClient()})
}
