// Package controller holds the Relay reconciler. Its writes are made on
// every pass only if values the search does not follow go their way: a
// bool a function of the tree's hands back, ending the pass early when it
// holds, and the result a reporting helper is handed by its caller.
package controller

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	relayv1 "example.com/fixtures/handedvalues/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "drift" "interval-trace"

// RelayReconciler forwards a Relay's message into its target ConfigMap.
type RelayReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// SetupWithManager registers the reconciler with the manager.
func (r *RelayReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&relayv1.Relay{}).Complete(r)
}

// Reconcile forwards the message, then reports how the pass went.
func (r *RelayReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	relay := &relayv1.Relay{}
	if err := r.Get(ctx, req.NamespacedName, relay); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := r.forward(ctx, relay)
	return ctrl.Result{}, report(r.Recorder, relay, res, err) // want "requeue-error"
}

// forward writes the message into the target, unless the relay is muted.
func (r *RelayReconciler) forward(ctx context.Context, relay *relayv1.Relay) (ctrl.Result, error) {
	if muted(relay) {
		return ctrl.Result{}, nil
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: relay.Namespace, Name: relay.Spec.Target},
		Data:       map[string]string{"message": relay.Spec.Message},
	}
	if err := r.Update(ctx, cm); err != nil { // want "write-unsettled"
		return ctrl.Result{}, err
	}
	return ctrl.Result{Requeue: relay.Spec.Message == ""}, nil
}

// muted reports whether the relay's message asks for silence.
func muted(relay *relayv1.Relay) bool {
	return strings.HasPrefix(relay.Spec.Message, "#")
}

// report records an event of the pass's outcome: the failure, a requeue,
// or success.
func report(rec record.EventRecorder, relay *relayv1.Relay, res ctrl.Result, err error) error {
	if err != nil {
		rec.Event(relay, corev1.EventTypeWarning, "Failed", err.Error())
		return err
	}
	if res.Requeue {
		rec.Event(relay, corev1.EventTypeNormal, "Requeued", "the message is empty") // want "write-unsettled"
	} else {
		rec.Event(relay, corev1.EventTypeNormal, "Forwarded", "the message was forwarded") // want "write-unsettled"
	}
	return nil
}
