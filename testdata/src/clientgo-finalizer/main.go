// Command widget-controller runs the Widget controller.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/clientgo-finalizer/pkg/controller"
	"example.com/fixtures/clientgo-finalizer/pkg/widgetclient"
)

func main() {
	var kubeconfig, masterURL string
	flag.StringVar(&kubeconfig, "kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.StringVar(&masterURL, "master", "", "The address of the Kubernetes API server.")
	klog.InitFlags(nil)
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	logger := klog.FromContext(ctx)

	cfg, err := clientcmd.BuildConfigFromFlags(masterURL, kubeconfig)
	if err != nil {
		logger.Error(err, "Error building kubeconfig")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	kubeClient := kubernetes.NewForConfigOrDie(cfg)
	widgets := widgetclient.New(dynamic.NewForConfigOrDie(cfg))

	kubeInformerFactory := kubeinformers.NewSharedInformerFactory(kubeClient, 10*time.Minute)
	widgetInformer := controller.NewWidgetInformer(widgets, 10*time.Minute)

	c, err := controller.NewController(ctx, kubeClient, widgets, widgetInformer, kubeInformerFactory.Core().V1().Secrets())
	if err != nil {
		logger.Error(err, "Error creating controller")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}

	kubeInformerFactory.Start(ctx.Done())
	go widgetInformer.RunWithContext(ctx)

	if err := c.Run(ctx, 2); err != nil {
		logger.Error(err, "Error running controller")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}
