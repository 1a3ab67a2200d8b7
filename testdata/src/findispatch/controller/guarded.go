package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ConfigMapReconciler/condition-types" "ConfigMapReconciler/requeue-success" "ConfigMapReconciler/interval-trace" "ConfigMapReconciler/drift"
// want-none "SecretReconciler/condition-types" "SecretReconciler/requeue-success" "SecretReconciler/interval-trace" "SecretReconciler/drift"
// want-none "ServiceReconciler/condition-types" "ServiceReconciler/requeue-success" "ServiceReconciler/interval-trace" "ServiceReconciler/drift"
// want-none "ServiceReconciler/finalizer-cleanup"

// guardFinalizer keeps a guarded object until its cleaner has run.
const guardFinalizer = "findispatch.example.com/guard" // want "ConfigMapReconciler/finalizer-const" "SecretReconciler/finalizer-const" "ServiceReconciler/finalizer-const"

// Cleaner releases what a guarded object holds before it goes.
type Cleaner interface {
	Clean(ctx context.Context, obj client.Object) error
}

// guard adds the finalizer to a live object, and on its deletion runs the
// cleaner and removes the finalizer.
func guard(ctx context.Context, c client.Client, obj client.Object, cleaner Cleaner) error {
	if obj.GetDeletionTimestamp() != nil {
		if !controllerutil.ContainsFinalizer(obj, guardFinalizer) {
			return nil
		}
		if err := cleaner.Clean(ctx, obj); err != nil {
			return err
		}
		controllerutil.RemoveFinalizer(obj, guardFinalizer) // want "ConfigMapReconciler/finalizer-remove" "SecretReconciler/finalizer-remove" "ServiceReconciler/finalizer-remove"
		return c.Update(ctx, obj)
	}
	if controllerutil.AddFinalizer(obj, guardFinalizer) { // want "ConfigMapReconciler/finalizer-add" "SecretReconciler/finalizer-add" "ServiceReconciler/finalizer-add"
		return c.Update(ctx, obj)
	}
	return nil
}

// configMapCleaner deletes the mirror Secret of a ConfigMap.
type configMapCleaner struct {
	client.Client
}

func (k *configMapCleaner) Clean(ctx context.Context, obj client.Object) error { // want "ConfigMapReconciler/finalizer-cleanup"
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return fmt.Errorf("configMapCleaner: got a %T, want a ConfigMap", obj)
	}
	mirror := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-mirror", Namespace: cm.Namespace}}
	return client.IgnoreNotFound(k.Delete(ctx, mirror))
}

// secretCleaner deletes the mirror ConfigMap of a Secret.
type secretCleaner struct {
	client.Client
}

func (k *secretCleaner) Clean(ctx context.Context, obj client.Object) error { // want "SecretReconciler/finalizer-cleanup"
	secret, ok := obj.(*corev1.Secret)
	if !ok {
		return fmt.Errorf("secretCleaner: got a %T, want a Secret", obj)
	}
	mirror := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: secret.Name + "-mirror", Namespace: secret.Namespace}}
	return client.IgnoreNotFound(k.Delete(ctx, mirror))
}

// eventCleaner records the deletion of any object.
type eventCleaner struct {
	client.Client
}

func (k *eventCleaner) Clean(ctx context.Context, obj client.Object) error {
	ev := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{GenerateName: obj.GetName() + "-", Namespace: obj.GetNamespace()},
		InvolvedObject: corev1.ObjectReference{Name: obj.GetName(), Namespace: obj.GetNamespace(), UID: obj.GetUID()},
		Reason:         "Cleaned",
	}
	return k.Create(ctx, ev)
}

// labelCleaner removes the guarded object's name from a shared index.
type labelCleaner struct {
	client.Client
}

func (k *labelCleaner) Clean(ctx context.Context, obj client.Object) error {
	index := &corev1.ConfigMap{}
	if err := k.Get(ctx, client.ObjectKey{Namespace: obj.GetNamespace(), Name: "guard-index"}, index); err != nil {
		return client.IgnoreNotFound(err)
	}
	delete(index.Data, obj.GetName())
	return k.Update(ctx, index)
}

// ConfigMapReconciler guards ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
	cleaner Cleaner
}

// Reconcile guards one ConfigMap.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := guard(ctx, r.Client, &cm, r.cleaner); err != nil {
		return ctrl.Result{}, err // want "ConfigMapReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SecretReconciler guards Secrets.
type SecretReconciler struct {
	client.Client
	cleaner Cleaner
}

// Reconcile guards one Secret.
func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := guard(ctx, r.Client, &secret, r.cleaner); err != nil {
		return ctrl.Result{}, err // want "SecretReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// ServiceReconciler guards Services; which of the cleaners that serve
// every kind it is given is decided where it is built, not by its kind.
type ServiceReconciler struct {
	client.Client
	cleaner Cleaner
}

// Reconcile guards one Service.
func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ServiceReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ServiceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := guard(ctx, r.Client, &svc, r.cleaner); err != nil {
		return ctrl.Result{}, err // want "ServiceReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupConfigMap registers the ConfigMap reconciler.
func SetupConfigMap(mgr ctrl.Manager) error {
	c := mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("guard-configmap").Complete(&ConfigMapReconciler{Client: c, cleaner: &configMapCleaner{c}})
}

// SetupSecret registers the Secret reconciler.
func SetupSecret(mgr ctrl.Manager) error {
	c := mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("guard-secret").Complete(&SecretReconciler{Client: c, cleaner: &secretCleaner{c}})
}

// SetupService registers the Service reconciler, with the cleaner audit
// selects.
func SetupService(mgr ctrl.Manager, audit bool) error {
	c := mgr.GetClient()
	var cleaner Cleaner = &labelCleaner{c}
	if audit {
		cleaner = &eventCleaner{c}
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("guard-service").Complete(&ServiceReconciler{Client: c, cleaner: cleaner})
}
