// Command zone-labeler copies each Node's zone annotation into a label. Its
// worker takes a node name off the queue, reads the Node itself through a
// typed helper of its own, and hands the Node, not the name, to the work:
// the worker is the entry and the helper's Get the re-read.
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
	l := newLabeler(client, factory.Core().V1().Nodes())
	factory.Start(ctx.Done())
	l.run(ctx, 2)
}
