// Command lock-keeper keeps, for each Job, a ConfigMap holding the Job's
// settings, and a lock ConfigMap while the Job runs. Three tests look like
// comparisons and compare no desired state with the cluster: a test of
// the Job's own status against a phase (it reports, it is not corrected),
// a test of that status against the copy the pass updates, and a test of
// which Job a lock belongs to (a name asks which object, not what state).
// The one comparison of desired with live state is the settings' data.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	logger := klog.FromContext(ctx)

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		logger.Error(err, "Error building kubeconfig")
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		logger.Error(err, "Error building kubernetes clientset")
		os.Exit(1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	k := newLockKeeper(client, factory.Batch().V1().Jobs(), factory.Core().V1().ConfigMaps())
	factory.Start(ctx.Done())
	k.run(ctx, 2)
}
