// Package controller holds a reconciler that reads its object as an
// interface (made by a factory it is given), registered for the concrete
// Widget, and a decoy that reads its ConfigMap as what it is.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ObjectReconciler/finalizer-const" "ObjectReconciler/finalizer-add" "ObjectReconciler/finalizer-cleanup" "ObjectReconciler/finalizer-remove" "ObjectReconciler/requeue-success" "ObjectReconciler/interval-trace" "ObjectReconciler/drift"
// want-none "ConfigMapReconciler/finalizer-const" "ConfigMapReconciler/finalizer-add" "ConfigMapReconciler/finalizer-cleanup" "ConfigMapReconciler/finalizer-remove" "ConfigMapReconciler/condition-types" "ConfigMapReconciler/requeue-success" "ConfigMapReconciler/interval-trace" "ConfigMapReconciler/drift"

// Widget is the operator's API type.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetStatus is what the reconciler reports.
type WidgetStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// DeepCopyObject copies the Widget.
func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	c.Status.Conditions = append([]metav1.Condition(nil), w.Status.Conditions...)
	return &c
}

// GetConditions returns the Widget's conditions.
func (w *Widget) GetConditions() []metav1.Condition { return w.Status.Conditions }

// SetConditions replaces the Widget's conditions.
func (w *Widget) SetConditions(c []metav1.Condition) { w.Status.Conditions = c }

// ReadyType is the condition the reconciler sets.
const ReadyType = "Ready" // want "ObjectReconciler/condition-type:Ready"

// Conditioned is an object with conditions.
type Conditioned interface {
	client.Object
	GetConditions() []metav1.Condition
	SetConditions([]metav1.Condition)
}

// ObjectReconciler reports every object it is given as ready.
type ObjectReconciler struct {
	client.Client
	newObject func() Conditioned
}

// Reconcile marks one object ready.
func (r *ObjectReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ObjectReconciler/reconcile-entry"
	obj := r.newObject()
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "ObjectReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	conds := obj.GetConditions()
	meta.SetStatusCondition(&conds, metav1.Condition{Type: ReadyType, Status: metav1.ConditionTrue, Reason: "Seen"}) // want "ObjectReconciler/condition-set:Ready"
	obj.SetConditions(conds)
	if err := r.Status().Update(ctx, obj); err != nil { // want "ObjectReconciler/write-always"
		return ctrl.Result{}, err // want "ObjectReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// ConfigMapReconciler stamps ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
}

// Reconcile stamps one ConfigMap.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm.Annotations = map[string]string{"example.com/seen": "yes"}
	if err := r.Update(ctx, &cm); err != nil { // want "ConfigMapReconciler/write-always"
		return ctrl.Result{}, err // want "ConfigMapReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// Setup registers both reconcilers.
func Setup(mgr ctrl.Manager) error {
	r := &ObjectReconciler{Client: mgr.GetClient(), newObject: func() Conditioned { return &Widget{} }}
	if err := ctrl.NewControllerManagedBy(mgr).For(&Widget{}).Complete(r); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ConfigMapReconciler{Client: mgr.GetClient()})
}
