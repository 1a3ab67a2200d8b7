// Package controller registers five controllers in one function, each for
// its own kind: two through the builder (one chained, one held in a
// variable), one with controller.New whose first watch is of a secondary
// type, and one with no For at all that watches its kind through an owner
// handler and a metadata-only watch. The fifth reads its Pod through a
// function value the call graph cannot resolve: its re-read is not settled.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// seenLabel marks an object a controller has seen.
const seenLabel = "example.com/seen"

// Setup registers the five controllers with the manager.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).
		Named("configmaps").
		For(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}).
		Complete(&ConfigMapReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}

	b := ctrl.NewControllerManagedBy(mgr).Named("secrets")
	b = b.Watches(&corev1.ConfigMap{}, &handler.EnqueueRequestForObject{})
	b.For(&corev1.Secret{})
	if err := b.Complete(&SecretReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}

	c, err := controller.New("accounts", mgr, controller.Options{Reconciler: &AccountReconciler{Client: mgr.GetClient()}})
	if err != nil {
		return err
	}
	if err := c.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{},
		handler.TypedEnqueueRequestForOwner[*corev1.Pod](mgr.GetScheme(), mgr.GetRESTMapper(), &corev1.ServiceAccount{}))); err != nil {
		return err
	}
	if err := c.Watch(source.Kind(mgr.GetCache(), &corev1.ServiceAccount{}, &handler.TypedEnqueueRequestForObject[*corev1.ServiceAccount]{})); err != nil {
		return err
	}

	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).
		Complete(&PodReconciler{fetch: mgr.GetClient().Get, Client: mgr.GetClient()}); err != nil {
		return err
	}

	return ctrl.NewControllerManagedBy(mgr).
		Named("services").
		Watches(&corev1.Pod{}, handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &corev1.Service{})).
		WatchesMetadata(&corev1.Service{}, &handler.EnqueueRequestForObject{}).
		Complete(&ServiceReconciler{Client: mgr.GetClient()})
}

// ConfigMapReconciler labels ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
}

// Reconcile labels one ConfigMap once.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[seenLabel] == "" { // want "ConfigMapReconciler/drift:compare"
		cm.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &cm); err != nil { // want "ConfigMapReconciler/drift:apply"
			return ctrl.Result{}, err // want "ConfigMapReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SecretReconciler labels Secrets; it reads the ConfigMap of the same name
// first (a decoy: a read by the key of another type).
type SecretReconciler struct {
	client.Client
}

// Reconcile labels one Secret once, when its ConfigMap exists.
func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.Labels[seenLabel] == "" { // want "SecretReconciler/drift:compare"
		secret.Labels = map[string]string{seenLabel: cm.Name}
		if err := r.Update(ctx, &secret); err != nil { // want "SecretReconciler/drift:apply"
			return ctrl.Result{}, err // want "SecretReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// AccountReconciler labels ServiceAccounts; it is wired with
// controller.New, its Pods' watch (enqueueing their owner) first.
type AccountReconciler struct {
	client.Client
}

// Reconcile labels one ServiceAccount once.
func (r *AccountReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "AccountReconciler/reconcile-entry"
	// A decoy: the Pod of the same name, read by the key first.
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); client.IgnoreNotFound(err) != nil {
		return reconcile.Result{}, err
	}
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "AccountReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if sa.Labels[seenLabel] == "" { // want "AccountReconciler/drift:compare"
		sa.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &sa); err != nil { // want "AccountReconciler/drift:apply"
			return reconcile.Result{}, err // want "AccountReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// ServiceReconciler labels Services; registered with no For, it watches
// them through their Pods' owner and a metadata-only watch.
type ServiceReconciler struct {
	client.Client
}

// Reconcile labels one Service once.
func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ServiceReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ServiceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Labels[seenLabel] == "" { // want "ServiceReconciler/drift:compare"
		svc.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &svc); err != nil { // want "ServiceReconciler/drift:apply"
			return ctrl.Result{}, err // want "ServiceReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// PodReconciler labels Pods, reading them through a function value.
type PodReconciler struct {
	client.Client
	fetch func(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error
}

// want-none "PodReconciler/reread"

// Reconcile labels one Pod once.
func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PodReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.fetch(ctx, req.NamespacedName, &pod); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Labels[seenLabel] == "" { // want "PodReconciler/drift:compare"
		pod.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &pod); err != nil { // want "PodReconciler/drift:apply"
			return ctrl.Result{}, err // want "PodReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}
