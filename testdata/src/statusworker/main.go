// Command port-status reports, in each Service's status, whether the
// ConfigMap describing its ports is in place. Its sync reads the Service
// through a generic helper that hands back nil for a key with no object,
// and returns early on a missing or deleting object; the status write
// that follows runs on every pass of an unchanged Service.
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
	c := newController(client, factory.Core().V1().Services(), factory.Core().V1().ConfigMaps())
	factory.Start(ctx.Done())
	c.run(ctx, 2)
}
