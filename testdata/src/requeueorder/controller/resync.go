package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ResyncReconciler/requeue-success" "ResyncReconciler/interval-trace" "ResyncReconciler/requeue-error"

// resyncName names the request that relabels every Node at once.
const resyncName = "resync-all"

// ResyncReconciler serves two kinds of request: a Node's own, which checks
// it, and one that relabels every Node. The Node is re-read on the first kind's way; the
// entry ends handing back the second kind's results, whose failures are
// not the Node's main work's: the requeue on error is not settled, never
// the resync's.
type ResyncReconciler struct {
	client.Client
}

// Reconcile dispatches on the kind of request.
func (r *ResyncReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ResyncReconciler/reconcile-entry"
	if req.Name != resyncName {
		return r.reconcileNode(ctx, req)
	}
	return r.resyncAll(ctx)
}

// reconcileNode checks that one Node names its zone.
func (r *ResyncReconciler) reconcileNode(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var node corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &node); err != nil { // want "ResyncReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if node.Labels[corev1.LabelTopologyZone] == "" {
		return ctrl.Result{}, fmt.Errorf("node %s names no zone", node.Name)
	}
	return ctrl.Result{}, nil
}

// resyncAll labels every Node.
func (r *ResyncReconciler) resyncAll(ctx context.Context) (ctrl.Result, error) {
	var nodes corev1.NodeList
	if err := r.List(ctx, &nodes); err != nil {
		return ctrl.Result{}, err
	}
	for i := range nodes.Items {
		nodes.Items[i].Labels = map[string]string{"resynced": "true"}
		if err := r.Update(ctx, &nodes.Items[i]); err != nil {
			return ctrl.Result{}, err // decoy: ResyncReconciler/requeue-error (the resync request's)
		}
	}
	return ctrl.Result{}, nil
}
