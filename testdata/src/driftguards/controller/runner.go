package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RunnerReconciler/finalizer-const" "RunnerReconciler/finalizer-add" "RunnerReconciler/finalizer-cleanup" "RunnerReconciler/finalizer-remove" "RunnerReconciler/condition-types" "RunnerReconciler/requeue-success" "RunnerReconciler/interval-trace"

// podState is what the runner found of its pod.
type podState string

const (
	stateUnknown podState = "unknown"
	stateMissing podState = "missing"
	stateStale   podState = "stale"
)

// RunnerReconciler keeps a runner pod per ConfigMap, made for the
// ConfigMap's Secret: the comparison of the live pod's label with the
// Secret's name (the desired value, not a test of which object this is)
// records a state, and the switch on it later recreates the pod.
type RunnerReconciler struct {
	client.Client
}

// Reconcile creates the runner pod, or recreates a stale one.
func (r *RunnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RunnerReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "RunnerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	image := wantedImage(cm.Data)
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil {
		return ctrl.Result{}, err
	}
	secretName := secret.Name
	state := stateUnknown
	pod := &corev1.Pod{}
	err := r.Get(ctx, req.NamespacedName, pod)
	if apierrors.IsNotFound(err) {
		state = stateMissing
	} else if err != nil {
		return ctrl.Result{}, err
	} else if pod.Labels["example.com/secret"] != secretName { // want "RunnerReconciler/drift:compare"
		state = stateStale
	}
	switch state {
	case stateMissing:
		if err := r.Create(ctx, runnerPod(req, image, secretName)); err != nil {
			return ctrl.Result{}, err
		}
	case stateStale:
		if err := r.Delete(ctx, pod); err != nil { // want "RunnerReconciler/drift:apply"
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, runnerPod(req, image, secretName)); err != nil {
			return ctrl.Result{}, err // want "RunnerReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// wantedImage is the image a ConfigMap's data asks for.
func wantedImage(data map[string]string) string {
	if img, ok := data["image"]; ok {
		return img
	}
	return "runner:latest"
}

// runnerPod is the pod wanted for a request.
func runnerPod(req ctrl.Request, image, secretName string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name, Labels: map[string]string{"example.com/secret": secretName}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "runner", Image: image}}},
	}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *RunnerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("runner").For(&corev1.ConfigMap{}).Owns(&corev1.Pod{}).Complete(r)
}
