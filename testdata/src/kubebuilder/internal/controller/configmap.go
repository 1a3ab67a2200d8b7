package controller

import (
	"context"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	gadgetsv1 "example.com/fixtures/kubebuilder/api/v1"
)

// gadgetLabel marks ConfigMaps rendered for a Gadget.
const gadgetLabel = "gadgets.example.com/name"

// configMapReconciler renders the ConfigMap a Gadget owns. It is called from
// GadgetReconciler.Reconcile and is never registered with the manager.
type configMapReconciler struct {
	client   client.Client
	scheme   *runtime.Scheme
	template map[string]string
}

// Reconcile creates or updates the Gadget's ConfigMap.
func (ctrl *configMapReconciler) Reconcile(ctx context.Context, gadget *gadgetsv1.Gadget) error { // decoy: reconcile-entry (sub-reconciler; receiver shadows the ctrl alias)
	desired := ctrl.render(gadget)
	if err := controllerutil.SetControllerReference(gadget, desired, ctrl.scheme); err != nil {
		return err
	}

	current := &corev1.ConfigMap{}
	err := ctrl.client.Get(ctx, types.NamespacedName{Namespace: gadget.Namespace, Name: gadget.Name}, current) // decoy: reread (same key, another type)
	if apierrors.IsNotFound(err) {
		return ctrl.client.Create(ctx, desired)
	}
	if err != nil {
		return err
	}
	if maps.Equal(current.Data, desired.Data) { // want "drift:compare"
		return unchanged()
	}
	current.Data = desired.Data
	return ctrl.client.Update(ctx, current) // want "drift:apply"
}

func (ctrl *configMapReconciler) render(gadget *gadgetsv1.Gadget) *corev1.ConfigMap {
	data := maps.Clone(ctrl.template)
	if data == nil {
		data = map[string]string{}
	}
	maps.Copy(data, gadget.Spec.Data)
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:      gadget.Name,
			Namespace: gadget.Namespace,
			Labels:    map[string]string{gadgetLabel: gadget.Name},
		},
		Data: data,
	}
}

// unchanged is the outcome of a pass that found the ConfigMap as desired:
// no error (drift: the branch ends the pass idle through a helper).
func unchanged() error {
	return nil
}
