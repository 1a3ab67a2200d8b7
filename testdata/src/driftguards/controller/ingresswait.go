package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "IngressWaitReconciler/finalizer-const" "IngressWaitReconciler/finalizer-add" "IngressWaitReconciler/finalizer-cleanup" "IngressWaitReconciler/finalizer-remove" "IngressWaitReconciler/condition-types" "IngressWaitReconciler/drift"

// IngressWaitReconciler writes the address of a ConfigMap's Service into a
// Secret once the load balancer has one. The test of an empty ingress list
// is a wait for the address, not a comparison of desired with live state:
// the write after it applies no difference, and the drift answer is none.
type IngressWaitReconciler struct {
	client.Client
}

// Reconcile publishes the Service's address.
func (r *IngressWaitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "IngressWaitReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "IngressWaitReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var svc corev1.Service
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Data["service"]}, &svc); err != nil {
		return ctrl.Result{}, err
	}
	if len(ingressPoints(&svc)) == 0 {
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // want "IngressWaitReconciler/requeue-success" "IngressWaitReconciler/trace:return" "IngressWaitReconciler/trace:constant"
	}
	secret := &corev1.Secret{}
	secret.Namespace, secret.Name = cm.Namespace, cm.Name+"-address"
	secret.StringData = map[string]string{"address": ingressPoints(&svc)[0]}
	return ctrl.Result{}, r.put(ctx, secret) // want "IngressWaitReconciler/requeue-error"
}

// ingressPoints are the addresses the Service's load balancer has.
func ingressPoints(svc *corev1.Service) []string {
	var out []string
	for _, in := range svc.Status.LoadBalancer.Ingress {
		out = append(out, in.IP+in.Hostname)
	}
	return out
}

// put creates the Secret, or replaces the one there.
func (r *IngressWaitReconciler) put(ctx context.Context, secret *corev1.Secret) error {
	if err := r.Create(ctx, secret); !apierrors.IsAlreadyExists(err) { // want "IngressWaitReconciler/write-always"
		return err
	}
	return r.Update(ctx, secret) // want "IngressWaitReconciler/write-always"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *IngressWaitReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("ingresswait").For(&corev1.ConfigMap{}).Complete(r)
}
