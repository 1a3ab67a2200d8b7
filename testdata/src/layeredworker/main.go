// Command labeller runs one controller with two sync functions on a shared
// work loop.
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

	"example.com/fixtures/layeredworker/pkg/labeller"
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
	l := labeller.New(client, factory.Core().V1().ConfigMaps(), factory.Core().V1().Secrets())
	factory.Start(ctx.Done())
	l.Run(ctx)
}
