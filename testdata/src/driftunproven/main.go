// Command node-tagger runs two controllers. The first labels the Node
// each Job runs on with the Job's team, and patches the Node only when a
// helper's list of changed labels is not empty: whether that list compares
// the labels wanted with the Node's live ones is not read, so the answer
// to "where is drift compared" is not settled there. The second stamps a
// ConfigMap for each CronJob, under tests of the CronJob's own spec and of
// errors only: nothing compares, so its answer is none. The third
// publishes a load-balancer address in each Service's status, patched by
// name through a helper it also marks Services seen with: its answer is
// not settled at that patch (lbstatus.go).
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
	tagger := newNodeTagger(client, factory.Batch().V1().Jobs(), factory.Core().V1().Nodes())
	stamper := newCronStamper(client, factory.Batch().V1().CronJobs())
	reporter := newIngressReporter(client, factory.Core().V1().Services(), "192.0.2.1")
	factory.Start(ctx.Done())
	go stamper.run(ctx)
	go reporter.run(ctx)
	tagger.run(ctx)
}
