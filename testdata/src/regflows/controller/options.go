// Package controller registers its reconcilers with controller.New in the
// shapes an options struct takes on its way there: a variable whose fields
// are set after the literal, a helper that builds it, and the reconciler
// stored into it after it is made. Each controller's watches are made on
// the controller value (typed sources); one watches its kind only through
// the owner of what it watches, and one's watch disagrees with what its
// reconcile reads by the key.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// seenLabel marks an object a controller has seen.
const seenLabel = "example.com/seen"

// workers is how many reconciles of one controller run at once.
const workers = 2

// ConfigMapReconciler labels ConfigMaps; its options are a variable whose
// concurrency is set after the literal.
type ConfigMapReconciler struct {
	client.Client
}

// AddConfigMaps registers the ConfigMap controller.
func AddConfigMaps(mgr manager.Manager) error {
	r := &ConfigMapReconciler{Client: mgr.GetClient()}
	opts := controller.Options{Reconciler: r}
	opts.MaxConcurrentReconciles = workers
	c, err := controller.New("configmaps", mgr, opts)
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.ConfigMap{}, &handler.TypedEnqueueRequestForObject[*corev1.ConfigMap]{}))
}

// Reconcile labels one ConfigMap once.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[seenLabel] == "" { // want "ConfigMapReconciler/drift:compare"
		cm.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &cm); err != nil { // want "ConfigMapReconciler/drift:apply"
			return reconcile.Result{}, err // want "ConfigMapReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// SecretReconciler labels Secrets; a method of its own builds its options.
type SecretReconciler struct {
	client.Client
}

// options are the controller's options, the reconciler among them.
func (r *SecretReconciler) options() controller.Options {
	return controller.Options{Reconciler: r, MaxConcurrentReconciles: workers}
}

// SetupWithManager registers the Secret controller.
func (r *SecretReconciler) SetupWithManager(mgr manager.Manager) error {
	c, err := controller.New("secrets", mgr, r.options())
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Secret{}, &handler.TypedEnqueueRequestForObject[*corev1.Secret]{}))
}

// Reconcile labels one Secret once, when its ConfigMap exists.
func (r *SecretReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "SecretReconciler/reconcile-entry"
	// A decoy: the ConfigMap of the same name, read by the key first.
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if secret.Labels[seenLabel] == "" { // want "SecretReconciler/drift:compare"
		secret.Labels = map[string]string{seenLabel: cm.Name}
		if err := r.Update(ctx, &secret); err != nil { // want "SecretReconciler/drift:apply"
			return reconcile.Result{}, err // want "SecretReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// AccountReconciler labels ServiceAccounts; its options are made first
// and given the reconciler after. It watches only the Pods the accounts
// own.
type AccountReconciler struct {
	client.Client
}

// AddAccounts registers the ServiceAccount controller.
func AddAccounts(mgr manager.Manager) error {
	opts := controller.Options{MaxConcurrentReconciles: workers}
	opts.Reconciler = &AccountReconciler{Client: mgr.GetClient()}
	c, err := controller.New("accounts", mgr, opts)
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{},
		handler.TypedEnqueueRequestForOwner[*corev1.Pod](mgr.GetScheme(), mgr.GetRESTMapper(), &corev1.ServiceAccount{})))
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

// ClaimReconciler labels PersistentVolumeClaims; its registration watches
// Pods, not the claims it reads by the key.
type ClaimReconciler struct {
	client.Client
}

// AddClaims registers the claim controller.
func AddClaims(mgr manager.Manager) error {
	opts := controller.Options{}
	opts.Reconciler = &ClaimReconciler{Client: mgr.GetClient()}
	c, err := controller.New("claims", mgr, opts)
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{}, &handler.TypedEnqueueRequestForObject[*corev1.Pod]{}))
}

// Reconcile labels one claim once.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "ClaimReconciler/reconcile-entry"
	var claim corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &claim); err != nil { // want "ClaimReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if claim.Labels[seenLabel] == "" { // want "ClaimReconciler/drift:compare"
		claim.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &claim); err != nil { // want "ClaimReconciler/drift:apply"
			return reconcile.Result{}, err // want "ClaimReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// QuotaReconciler labels ResourceQuotas; it keeps its controller in a
// field and watches only the Pods the quotas own, through that field.
type QuotaReconciler struct {
	client.Client
	ctrl controller.Controller
}

// SetupWithManager registers the ResourceQuota controller.
func (r *QuotaReconciler) SetupWithManager(mgr manager.Manager) error {
	var err error
	r.ctrl, err = controller.New("quotas", mgr, controller.Options{Reconciler: r})
	if err != nil {
		return err
	}
	return r.ctrl.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{},
		handler.TypedEnqueueRequestForOwner[*corev1.Pod](mgr.GetScheme(), mgr.GetRESTMapper(), &corev1.ResourceQuota{})))
}

// Reconcile labels one ResourceQuota once.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "QuotaReconciler/reconcile-entry"
	// A decoy: the Pod of the same name, read by the key first.
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); client.IgnoreNotFound(err) != nil {
		return reconcile.Result{}, err
	}
	var quota corev1.ResourceQuota
	if err := r.Get(ctx, req.NamespacedName, &quota); err != nil { // want "QuotaReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if quota.Labels[seenLabel] == "" { // want "QuotaReconciler/drift:compare"
		quota.Labels = map[string]string{seenLabel: "yes"}
		if err := r.Update(ctx, &quota); err != nil { // want "QuotaReconciler/drift:apply"
			return reconcile.Result{}, err // want "QuotaReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}
