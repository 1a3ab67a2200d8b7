// Command dev runs the controller against the in-memory buckets.
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/fixtures/extcleanup/controller"
	"example.com/fixtures/extcleanup/storage/fake"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	r := &controller.BucketReconciler{Client: mgr.GetClient(), Buckets: &fake.Buckets{Names: map[string]bool{}}}
	if err := r.SetupWithManager(mgr); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
