// Command storage-controller runs the storage controllers.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/fixtures/finorigins/api/v1"
	"example.com/fixtures/finorigins/controller"
)

func main() {
	scheme := runtime.NewScheme()
	if err := v1.SchemeBuilder.AddToScheme(scheme); err != nil {
		os.Exit(1)
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		os.Exit(1)
	}
	if err := (&controller.VolumeReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&controller.BucketReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&controller.ShareReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	mount := &controller.MountReconciler{Client: mgr.GetClient(), Finalizers: controller.NewFinalizerManager(mgr.GetClient())}
	if err := mount.SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
