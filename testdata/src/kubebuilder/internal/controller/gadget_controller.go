// Package controller holds the Gadget reconciler.
package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	gadgetsv1 "example.com/fixtures/kubebuilder/api/v1"
)

const gadgetFinalizer = "gadgets.example.com/finalizer" // want "finalizer-const"

// Condition types reported on Gadget.Status.Conditions.
const (
	// TypeAvailable means the Gadget's ConfigMap is rendered and current.
	TypeAvailable = "Available" // want "condition-type:Available"
	// TypeProgressing means the Gadget is being reconciled.
	TypeProgressing = "Progressing" // want "condition-type:Progressing"
)

// GadgetReconciler reconciles a Gadget object.
type GadgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=gadgets.example.com,resources=gadgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=gadgets.example.com,resources=gadgets/status,verbs=get;update;patch
// decoy: finalizer-add (the next marker only grants RBAC; no code behind it)
// +kubebuilder:rbac:groups=gadgets.example.com,resources=gadgets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch;create;update;patch;delete

// Reconcile renders a Gadget into a ConfigMap it owns.
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	log := logf.FromContext(ctx)

	gadget := &gadgetsv1.Gadget{}
	if err := r.Get(ctx, req.NamespacedName, gadget); err != nil { // want "reread"
		if apierrors.IsNotFound(err) {
			log.Info("Gadget not found; ignoring since it must have been deleted")
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	setGadgetDefaults(ctx, r.Client, gadget)

	if !gadget.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(gadget, gadgetFinalizer) {
			if err := r.cleanup(ctx, gadget); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(gadget, gadgetFinalizer) // want "finalizer-remove"
			if err := r.Update(ctx, gadget); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}

	if !controllerutil.ContainsFinalizer(gadget, gadgetFinalizer) {
		log.Info("Adding finalizer")
		controllerutil.AddFinalizer(gadget, gadgetFinalizer) // want "finalizer-add"
		if err := r.Update(ctx, gadget); err != nil {
			return ctrl.Result{Requeue: true}, err // decoy: requeue-error (Requeue is ignored with a non-nil error)
		}
	}

	if len(gadget.Status.Conditions) == 0 {
		meta.SetStatusCondition(&gadget.Status.Conditions, metav1.Condition{Type: TypeProgressing, Status: metav1.ConditionUnknown, Reason: "Reconciling", Message: "Starting reconciliation"})
		if err := r.Status().Update(ctx, gadget); err != nil {
			return ctrl.Result{}, err
		}
	}

	template := &corev1.ConfigMap{}
	if gadget.Spec.TemplateRef != "" {
		key := types.NamespacedName{Namespace: req.Namespace, Name: gadget.Spec.TemplateRef}
		if err := r.Get(ctx, key, template); err != nil { // decoy: reread (another object)
			return ctrl.Result{}, err
		}
	}

	meta.SetStatusCondition(&gadget.Status.Conditions, metav1.Condition{ // want "condition-set:Progressing"
		Type:    TypeProgressing,
		Status:  metav1.ConditionTrue,
		Reason:  "Rendering",
		Message: "Rendering the gadget's ConfigMap",
	})

	sub := &configMapReconciler{client: r.Client, scheme: r.Scheme, template: template.Data}
	reconcileErr := sub.Reconcile(ctx, gadget)
	if reconcileErr != nil {
		meta.SetStatusCondition(&gadget.Status.Conditions, metav1.Condition{Type: TypeAvailable, Status: metav1.ConditionFalse, Reason: "RenderFailed", Message: reconcileErr.Error()})
	} else {
		meta.SetStatusCondition(&gadget.Status.Conditions, metav1.Condition{ // want "condition-set:Available"
			Type:    TypeAvailable,
			Status:  metav1.ConditionTrue,
			Reason:  "Rendered",
			Message: fmt.Sprintf("ConfigMap %s is up to date", gadget.Name),
		})
		meta.SetStatusCondition(&gadget.Status.Conditions, metav1.Condition{Type: TypeProgressing, Status: metav1.ConditionFalse, Reason: "Rendered", Message: "Done"})
	}
	if err := r.Status().Update(ctx, gadget); err != nil { // want "write-always"
		return ctrl.Result{}, err
	}

	if reconcileErr != nil {
		log.Error(reconcileErr, "Failed to render ConfigMap; retrying")
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil // want "requeue-error"
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil // want "requeue-success" "trace:return" "trace:constant"
}

// cleanup deletes ConfigMaps labelled for this Gadget outside its namespace.
func (r *GadgetReconciler) cleanup(ctx context.Context, gadget *gadgetsv1.Gadget) error { // want "finalizer-cleanup"
	logf.FromContext(ctx).Info("Cleaning up labelled ConfigMaps")
	return client.IgnoreNotFound(r.DeleteAllOf(ctx, &corev1.ConfigMap{},
		client.InNamespace(gadget.Namespace),
		client.MatchingLabels{gadgetLabel: gadget.Name},
	))
}

// SetupWithManager sets up the controller with the Manager.
func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&gadgetsv1.Gadget{}).
		Owns(&corev1.ConfigMap{}).
		Named("gadget").
		Complete(r)
}
