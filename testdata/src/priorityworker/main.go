// Command prioritizer runs two client-go controllers whose workqueue is
// controller-runtime's priority queue: each key comes off it with its
// priority, and goes back on it with options that say how.
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

	"example.com/fixtures/priorityworker/pkg/nodes"
	"example.com/fixtures/priorityworker/pkg/pods"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	p := pods.New(factory.Core().V1().Pods())
	n := nodes.New(factory.Core().V1().Nodes())
	factory.Start(ctx.Done())
	go p.Run(ctx)
	n.Run(ctx)
}
