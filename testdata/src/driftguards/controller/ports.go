package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "PortReconciler/finalizer-const" "PortReconciler/finalizer-add" "PortReconciler/finalizer-cleanup" "PortReconciler/finalizer-remove" "PortReconciler/condition-types" "PortReconciler/requeue-success" "PortReconciler/interval-trace"
// want-none "ZoneReconciler/finalizer-const" "ZoneReconciler/finalizer-add" "ZoneReconciler/finalizer-cleanup" "ZoneReconciler/finalizer-remove" "ZoneReconciler/condition-types" "ZoneReconciler/requeue-success" "ZoneReconciler/interval-trace"

// PortReconciler keeps the port a ConfigMap names on the Service of its
// name. The test says when the two agree; the write is in its else
// branch, which runs when they differ.
type PortReconciler struct {
	client.Client
}

// Reconcile keeps the Service's port.
func (r *PortReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PortReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "PortReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	port := wantedPort(&cm)
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if servesPort(&svc, port) { // want "PortReconciler/drift:compare"
		log.FromContext(ctx).V(1).Info("port in place", "port", port)
	} else {
		svc.Spec.Ports = []corev1.ServicePort{{Name: "main", Port: port}}
		if err := r.Update(ctx, &svc); err != nil { // want "PortReconciler/drift:apply"
			return ctrl.Result{}, err // want "PortReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// wantedPort is the ConfigMap's "port" key, 8080 when unset.
func wantedPort(cm *corev1.ConfigMap) int32 {
	n, err := strconv.Atoi(cm.Data["port"])
	if err != nil {
		return 8080
	}
	return int32(n)
}

// servesPort reports whether the live Service serves port.
func servesPort(svc *corev1.Service, port int32) bool {
	for _, p := range svc.Spec.Ports {
		if p.Port == port {
			return true
		}
	}
	return false
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *PortReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("ports").For(&corev1.ConfigMap{}).Owns(&corev1.Service{}).Complete(r)
}

// ZoneReconciler labels the Node a Pod runs on with the Pod's zone when
// the function it is handed says the Node's labels differ. The function
// is a value whose body this tree does not hold: where drift is compared
// is not settled, and never "none".
type ZoneReconciler struct {
	client.Client
	// Differs reports whether the node's labels lack zone.
	Differs func(node *corev1.Node, zone string) bool
}

// Reconcile labels the Pod's Node.
func (r *ZoneReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ZoneReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "ZoneReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	zone := pod.Labels["zone"]
	var node corev1.Node
	if err := r.Get(ctx, client.ObjectKey{Name: pod.Spec.NodeName}, &node); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.Differs(&node, zone) {
		patch := client.MergeFrom(node.DeepCopy())
		node.Labels["zone"] = zone
		return ctrl.Result{}, r.Patch(ctx, &node, patch) // want "ZoneReconciler/requeue-error" "ZoneReconciler/drift:unsettled"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Pods.
func (r *ZoneReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("zones").For(&corev1.Pod{}).Complete(r)
}
