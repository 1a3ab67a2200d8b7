package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const recollect = 5 * time.Minute // want "CollectReconciler/trace:constant"

// replicationController names the kind by an alias, as a tree that
// re-exports another module's API types does.
type replicationController = corev1.ReplicationController

// CollectReconciler checks each container of a ReplicationController and
// keeps the failures in a slice: a pass that collected any asks to come
// back at once with a nil error, a retry because something failed.
type CollectReconciler struct {
	client.Client
}

// Reconcile reads the ReplicationController and checks its containers.
func (r *CollectReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CollectReconciler/reconcile-entry"
	var rc replicationController
	if err := r.Get(ctx, req.NamespacedName, &rc); err != nil { // want "CollectReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if rc.Spec.Template == nil {
		return ctrl.Result{}, nil
	}
	errs := make([]error, 0)
	for _, c := range rc.Spec.Template.Spec.Containers {
		if c.Image == "" {
			errs = append(errs, fmt.Errorf("container %s has no image", c.Name))
		}
	}
	if len(errs) > 0 {
		return ctrl.Result{Requeue: true}, nil // want "CollectReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: recollect}, nil // want "CollectReconciler/requeue-success" "CollectReconciler/trace:return"
}
