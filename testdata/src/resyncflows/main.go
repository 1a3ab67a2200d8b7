// Command configmap-mirror copies annotated ConfigMaps into Secrets. It
// starts two informer factories before the controller, and takes the
// controller's informers from one of them in a helper: the resync that
// brings a ConfigMap back is that factory's, not the first one's.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	kubeinformers "k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/resyncflows/widgets"
)

var (
	masterURL  string
	kubeconfig string
)

func main() {
	klog.InitFlags(nil)
	flag.StringVar(&kubeconfig, "kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.StringVar(&masterURL, "master", "", "The address of the Kubernetes API server. Overrides any value in kubeconfig.")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	logger := klog.FromContext(ctx)

	cfg, err := clientcmd.BuildConfigFromFlags(masterURL, kubeconfig)
	if err != nil {
		logger.Error(err, "Error building kubeconfig")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		logger.Error(err, "Error building kubernetes clientset")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}

	// decoy: resync (the factory of Widgets, created first, cannot watch ConfigMaps)
	widgetFactory := widgets.NewSharedInformerFactory(kubeClient, 10*time.Minute)
	kubeInformerFactory := kubeinformers.NewSharedInformerFactory(kubeClient, 30*time.Second)

	configMaps, secrets := informersOf(kubeInformerFactory)
	controller := NewController(ctx, kubeClient, configMaps, secrets)

	widgetFactory.Start(ctx.Done())
	kubeInformerFactory.Start(ctx.Done())

	if err := controller.Run(ctx, 2); err != nil {
		logger.Error(err, "Error running controller")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}

// informersOf takes the controller's informers from the factory.
func informersOf(f kubeinformers.SharedInformerFactory) (coreinformers.ConfigMapInformer, coreinformers.SecretInformer) {
	return f.Core().V1().ConfigMaps(), f.Core().V1().Secrets()
}
