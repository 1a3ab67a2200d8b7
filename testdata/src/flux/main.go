// Command bundle-controller runs the Bundle controller.
package main

import (
	"flag"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fluxcd/pkg/runtime/jitter"

	bundlev1 "example.com/fixtures/flux/api/v1"
	"example.com/fixtures/flux/internal/controller"
)

const controllerName = "bundle-controller"

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(bundlev1.AddToScheme(scheme))
}

func main() {
	var (
		metricsAddr    string
		jitterPercent  float64
		minRetryDelay  time.Duration
		maxRetryDelay  time.Duration
		leaderElection bool
	)
	flag.StringVar(&metricsAddr, "metrics-addr", ":8080", "The address the metric endpoint binds to.")
	flag.Float64Var(&jitterPercent, "interval-jitter-percentage", 0.05, "Jitter applied to the reconciliation interval.")
	flag.DurationVar(&minRetryDelay, "min-retry-delay", 750*time.Millisecond, "The minimum retry delay on failure.")
	flag.DurationVar(&maxRetryDelay, "max-retry-delay", 15*time.Minute, "The maximum retry delay on failure.")
	flag.BoolVar(&leaderElection, "enable-leader-election", false, "Enable leader election for controller manager.")
	flag.Parse()

	ctrl.SetLogger(zap.New())
	jitter.SetGlobalIntervalJitter(jitterPercent, nil)

	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:           scheme,
		LeaderElection:   leaderElection,
		LeaderElectionID: controllerName + "-leader-election",
	})
	if err != nil {
		setupLog.Error(err, "unable to create manager")
		os.Exit(1)
	}

	if err := (&controller.BundleReconciler{
		Client:         mgr.GetClient(),
		ControllerName: controllerName,
	}).SetupWithManager(mgr, controller.BundleReconcilerOptions{
		RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](minRetryDelay, maxRetryDelay),
	}); err != nil {
		setupLog.Error(err, "unable to create controller", "controller", bundlev1.BundleKind)
		os.Exit(1)
	}

	setupLog.Info("starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "problem running manager")
		os.Exit(1)
	}
}
