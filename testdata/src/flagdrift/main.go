// Command svc-keeper keeps, for each ConfigMap naming an app, a Service of
// the same name selecting that app's pods. Its sync compares the live
// Service field by field, each comparison setting one flag that guards
// the single Update; a Service it does not own is only marked, after a
// test of its owner reference, which asks who owns it and compares no
// state.
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
	k := newKeeper(client, factory.Core().V1().ConfigMaps())
	factory.Start(ctx.Done())
	k.run(ctx, 2)
}
