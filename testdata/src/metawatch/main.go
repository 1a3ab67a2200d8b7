// Command drainer lets go of Nodes being deleted. Its controller has no
// For: it watches Nodes' metadata only, queueing each Node's own key, and
// reads the Node as metadata (PartialObjectMetadata, its kind set at run
// time). Its kind is Node, the type its watch names, not
// PartialObjectMetadata.
package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
)

// want-none "finalizer-add" "condition-types" "requeue-success" "interval-trace" "drift"

// drainFinalizer holds a Node until it is drained.
const drainFinalizer = "example.com/drain" // want "finalizer-const"

// Drainer removes the finalizer of Nodes being deleted.
type Drainer struct {
	client client.Client
}

// Reconcile reads the Node's metadata and lets it go once deleted.
func (d *Drainer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var node metav1.PartialObjectMetadata
	node.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Node"))
	if err := d.client.Get(ctx, req.NamespacedName, &node); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if node.DeletionTimestamp == nil {
		return ctrl.Result{}, nil
	}
	if err := d.drain(ctx, node.Name); err != nil {
		return ctrl.Result{}, err
	}
	if controllerutil.RemoveFinalizer(&node, drainFinalizer) { // want "finalizer-remove"
		return ctrl.Result{}, d.client.Update(ctx, &node) // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// drain evicts the Pods of a Node.
func (d *Drainer) drain(ctx context.Context, name string) error { // want "finalizer-cleanup"
	return d.client.DeleteAllOf(ctx, &corev1.Pod{}, client.MatchingFields{"spec.nodeName": name})
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("drainer").
		WatchesMetadata(&corev1.Node{}, &handler.EnqueueRequestForObject{}).
		Complete(&Drainer{client: mgr.GetClient()}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
