package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "QuotaReconciler/finalizer-const" "QuotaReconciler/finalizer-add" "QuotaReconciler/finalizer-cleanup" "QuotaReconciler/finalizer-remove" "QuotaReconciler/condition-types" "QuotaReconciler/requeue-success" "QuotaReconciler/interval-trace"
// want-none "SemanticQuotaReconciler/finalizer-const" "SemanticQuotaReconciler/finalizer-add" "SemanticQuotaReconciler/finalizer-cleanup" "SemanticQuotaReconciler/finalizer-remove" "SemanticQuotaReconciler/condition-types" "SemanticQuotaReconciler/requeue-success" "SemanticQuotaReconciler/interval-trace"

// quotaName is the ResourceQuota each Namespace is given.
const quotaName = "pods"

// podQuota is the quota a Namespace is given, built anew on each pass:
// its quantity holds no cached text, where one decoded from the cluster
// may.
func podQuota() corev1.ResourceQuotaSpec {
	return corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: *resource.NewQuantity(50, resource.DecimalSI)}}
}

// QuotaReconciler gives each Namespace a pod quota and updates it when
// reflect.DeepEqual finds it differs: that compares the quantities' cached
// text too, so whether an unchanged quota is written again is not settled.
type QuotaReconciler struct {
	client.Client
}

// Reconcile keeps the Namespace's quota.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "QuotaReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "QuotaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	want := podQuota()
	var rq corev1.ResourceQuota
	if err := r.Get(ctx, client.ObjectKey{Namespace: ns.Name, Name: quotaName}, &rq); err != nil {
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		rq = corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: quotaName}, Spec: want}
		return ctrl.Result{}, r.Create(ctx, &rq)
	}
	if !reflect.DeepEqual(rq.Spec, want) { // want "QuotaReconciler/drift:compare"
		rq.Spec = want
		return ctrl.Result{}, r.Update(ctx, &rq) // want "QuotaReconciler/requeue-error" "QuotaReconciler/write-unsettled" "QuotaReconciler/drift:apply"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *QuotaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("quota").For(&corev1.Namespace{}).Complete(r)
}

// SemanticQuotaReconciler is QuotaReconciler comparing by value
// (equality.Semantic): an unchanged quota is not written again.
type SemanticQuotaReconciler struct {
	client.Client
}

// Reconcile keeps the Namespace's quota.
func (r *SemanticQuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SemanticQuotaReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "SemanticQuotaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	want := podQuota()
	var rq corev1.ResourceQuota
	if err := r.Get(ctx, client.ObjectKey{Namespace: ns.Name, Name: quotaName}, &rq); err != nil {
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		rq = corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: quotaName}, Spec: want}
		return ctrl.Result{}, r.Create(ctx, &rq)
	}
	if !equality.Semantic.DeepEqual(rq.Spec, want) { // want "SemanticQuotaReconciler/drift:compare"
		rq.Spec = want
		return ctrl.Result{}, r.Update(ctx, &rq) // want "SemanticQuotaReconciler/requeue-error" "SemanticQuotaReconciler/drift:apply"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *SemanticQuotaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("semanticquota").For(&corev1.Namespace{}).Complete(r)
}
