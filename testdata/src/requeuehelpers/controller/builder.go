package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// resync is how often a Secret is looked at again.
const resync = 10 * time.Minute // want "BuilderReconciler/trace:constant"

// BuilderReconciler labels Secrets, building every result with one helper.
type BuilderReconciler struct {
	client.Client
}

// outcome is what a pass ends with: an error, or a wait.
type outcome struct {
	wait time.Duration
	err  error
}

// result starts an outcome.
func (r *BuilderReconciler) result(err error) *outcome {
	return &outcome{err: err}
}

// after asks for a wait.
func (o *outcome) after(d time.Duration) *outcome {
	o.wait = d
	return o
}

// ret is the result and the error of an outcome.
func (o *outcome) ret() (ctrl.Result, error) {
	if o.wait != 0 {
		return ctrl.Result{RequeueAfter: o.wait}, o.err
	} else if o.err != nil {
		return ctrl.Result{}, o.err // want "BuilderReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: resync}, nil // want "BuilderReconciler/requeue-success" "BuilderReconciler/trace:return"
}

// Reconcile labels the Secret; a failure reaches the builder first.
func (r *BuilderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BuilderReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "BuilderReconciler/reread"
		return r.result(client.IgnoreNotFound(err)).ret()
	}
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels["seen"] = "true"
	return r.finish(ctx, &s)
}

// finish writes the Secret.
func (r *BuilderReconciler) finish(ctx context.Context, s *corev1.Secret) (ctrl.Result, error) {
	return r.result(r.Update(ctx, s)).ret() // want "BuilderReconciler/write-always"
}
