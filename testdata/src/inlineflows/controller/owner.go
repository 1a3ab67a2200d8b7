package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const (
	// ownerLabel names the team a Secret belongs to.
	ownerLabel = "example.com/owner"
	// retiredLabel marks a Secret its team no longer uses.
	retiredLabel = "example.com/retired"
)

// OwnerReconciler keeps each Secret labelled with its namespace's team,
// deletes the Secrets marked retired, and keeps a Service per Secret.
type OwnerReconciler struct {
	client.Client
	// Team is the team that owns the namespace's Secrets.
	Team string
}

// Reconcile brings one Secret to what its namespace wants.
func (r *OwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OwnerReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "OwnerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The live label is read through a function literal; the branch
	// hands the relabelling to a helper.
	labelOf := func(key string) string { return s.Labels[key] }
	if labelOf(ownerLabel) != r.Team { // want "OwnerReconciler/drift:compare"
		return ctrl.Result{}, r.relabel(ctx, &s) // want "OwnerReconciler/drift:apply"
	}
	// A state test whose branch deletes the Secret, in a helper.
	if s.Labels[retiredLabel] == "true" { // want "OwnerReconciler/drift:compare"
		return ctrl.Result{}, r.retire(ctx, &s) // want "OwnerReconciler/drift:apply"
	}
	// The library's create-or-update, named through the alias the root
	// package re-exports and handed through an instrumentation hook.
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: s.Namespace, Name: s.Name}}
	if _, err := traced("service", ctrl.CreateOrUpdate)(ctx, r.Client, svc, func() error { // want "OwnerReconciler/drift:apply"
		svc.Spec.Ports = []corev1.ServicePort{{Port: 443}}
		return controllerutil.SetControllerReference(&s, svc, r.Scheme())
	}); err != nil {
		return ctrl.Result{}, err // want "OwnerReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// relabel writes the namespace's team on a Secret.
func (r *OwnerReconciler) relabel(ctx context.Context, s *corev1.Secret) error {
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels[ownerLabel] = r.Team
	return r.Update(ctx, s)
}

// retire deletes a Secret marked retired.
func (r *OwnerReconciler) retire(ctx context.Context, s *corev1.Secret) error {
	return client.IgnoreNotFound(r.Delete(ctx, s))
}

// traced is an instrumentation hook: it hands back the function it is
// given, which a build with tracing wraps.
func traced[F any](name string, f F) F {
	_ = name
	return f
}
