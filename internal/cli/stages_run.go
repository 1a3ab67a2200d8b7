package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/cluster"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/liverun"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// RunOptions are the flags of `stages --run`.
type RunOptions struct {
	On         bool          // --run
	For        time.Duration // --for: how long the controller runs before the delete
	Object     string        // --object: the object to create, instead of the tree's example
	Then       string        // --then: the object's new version, applied halfway
	Kubeconfig string        // --kubeconfig: the user's cluster, instead of a throwaway one
	Keep       bool          // --keep: leave the CRDs the run created in the --kubeconfig cluster
}

// linger is how long the controller keeps running after the delete, to
// handle it (a finalizer's cleanup) and go quiet.
const linger = 8 * time.Second

func (r *RunOptions) addFlags(c *cobra.Command) {
	c.Flags().BoolVar(&r.On, "run", false, "patch a copy, run it against a throwaway API server (or --kubeconfig), and read its log")
	c.Flags().DurationVar(&r.For, "for", 30*time.Second, "with --run: how long the controller runs before the object is deleted")
	c.Flags().StringVar(&r.Object, "object", "", "with --run: a YAML file of the object to create (CRDs in it are applied first), instead of the tree's example")
	c.Flags().StringVar(&r.Then, "then", "", "with --run: a YAML file of the object's new version, applied once halfway")
	c.Flags().StringVar(&r.Kubeconfig, "kubeconfig", "", "with --run: use this cluster instead of a throwaway one (a CRD it already has is never replaced; those the run creates are deleted at the end)")
	c.Flags().BoolVar(&r.Keep, "keep", false, "with --run --kubeconfig: leave the CRDs the run created in the cluster")
}

// flagsSet says whether a flag that goes with --run was given.
func (r *RunOptions) flagsSet(c *cobra.Command) bool {
	for _, f := range []string{"for", "object", "then", "kubeconfig", "keep"} {
		if c.Flags().Changed(f) {
			return true
		}
	}
	return false
}

// runStages is `stages --run`: patch and build a copy, bring up a cluster,
// play create / change / delete against the controller, and read its log.
// Everything it starts is stopped by PID before it returns, also when it
// is interrupted (SIGINT, SIGTERM).
func runStages(ctx context.Context, g *globals, opts *StagesOptions) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	ctx = load.WithTags(ctx, opts.Tags)
	progress := func(msg string) {
		if !g.quiet {
			fmt.Fprintf(g.stderr, "ctrlcmp: %s\n", msg)
		}
	}
	r := opts.Run
	if st, err := os.Stat(opts.Dir); err != nil || !st.IsDir() {
		return fail.Usage("%s is not a directory; give the controller's module directory", opts.Dir)
	}
	var extraCRDs []cluster.Object
	var object, then cluster.Object
	if r.Object != "" {
		objs, err := cluster.ReadObjects(r.Object)
		if err != nil {
			return fail.Usage("--object %s: %w", r.Object, err)
		}
		for _, o := range objs {
			switch {
			case o.Kind() == "CustomResourceDefinition":
				extraCRDs = append(extraCRDs, o)
			case object == nil:
				object = o
			}
		}
		if object == nil {
			return fail.Usage("--object %s holds no object to create (only CRDs)", r.Object)
		}
	}
	if r.Then != "" {
		objs, err := cluster.ReadObjects(r.Then)
		if err != nil || len(objs) != 1 {
			return fail.Usage("--then %s: give one YAML document, the object's new version (%v)", r.Then, err)
		}
		then = objs[0]
	}

	progress("patching and building a copy of " + opts.Dir)
	p, err := liverun.Prepare(ctx, opts.Dir, opts.Kind, progress)
	if err != nil {
		return err
	}
	defer p.Remove()
	for _, s := range p.Skipped {
		progress("not patched: " + s)
	}
	m, err := liverun.ReadManifests(opts.Dir)
	if err != nil {
		return fail.Wrap(fail.CodeLoad, err)
	}
	if object == nil {
		ex, err := m.ExampleOf(p.Controller.Kind)
		if err != nil {
			return fail.Usage("%s: %w", opts.Dir, err)
		}
		object = ex.Object
		progress(fmt.Sprintf("the object: %s from %s", object, ex.File))
	}
	if then != nil && (then.Kind() != object.Kind() || then.Name() != object.Name()) {
		return fail.Usage("--then %s is %s, not the object %s", r.Then, then, object)
	}

	kubeconfig := r.Kubeconfig
	if kubeconfig == "" {
		c, err := throwawayCluster(ctx, opts.Dir, progress)
		if err != nil {
			return err
		}
		defer func() {
			progress("stopping the throwaway cluster")
			c.Stop()
		}()
		kubeconfig = c.Kubeconfig
	}
	client, err := cluster.NewClient(kubeconfig)
	if err != nil {
		return fail.Usage("%w", err)
	}
	if r.Kubeconfig != "" && !r.Keep {
		var created []cluster.Object
		defer func() { removeCRDs(ctx, client, created, progress) }()
		err = ensureCRDs(ctx, client, append(m.CRDs, extraCRDs...), func(crd cluster.Object) { created = append(created, crd) }, progress)
	} else {
		err = ensureCRDs(ctx, client, append(m.CRDs, extraCRDs...), func(cluster.Object) {}, progress)
	}
	if err != nil {
		return err
	}
	run, err := p.Start(ctx, kubeconfig)
	if err != nil {
		return err
	}
	progress(fmt.Sprintf("started the patched controller (pid %d)", run.Process.PID()))
	if err := playStages(ctx, run, client, object, then, r.For, progress); err != nil {
		return err
	}
	// Read against the patched copy: the log's file:line are its lines
	// (and its last line, Stop's, says when the controller stopped).
	read := *opts
	read.Dir, read.Log = p.Dir, run.LogFile
	return readLog(g, &read)
}

// ensureCRDs creates each CRD the cluster lacks, handing each it created
// to created; one the cluster already has is left as it is, and said.
func ensureCRDs(ctx context.Context, client *cluster.Client, crds []cluster.Object, created func(cluster.Object), progress func(string)) error {
	for _, crd := range crds {
		made, err := client.EnsureCRD(ctx, crd)
		if made {
			created(crd)
			progress("created " + crd.String())
		} else if err == nil {
			progress(crd.String() + " exists in the cluster already: left as it is (a CRD is never replaced), and the run uses the cluster's version")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// removeCRDs deletes the CRDs the run created, also after an interrupt.
func removeCRDs(ctx context.Context, client *cluster.Client, crds []cluster.Object, progress func(string)) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	for _, crd := range crds {
		if err := client.DeleteCRD(ctx, crd); err != nil {
			progress(fmt.Sprintf("%v; delete it by hand", err))
			continue
		}
		progress("deleted " + crd.String() + ", which the run created (--keep leaves it)")
	}
}

// playStages plays the scenario on a running controller (create, the
// change halfway when then is not nil, delete after d, linger) and stops
// the controller. The object is deleted even when the scenario fails or
// is interrupted.
func playStages(ctx context.Context, run *liverun.Run, client *cluster.Client, object, then cluster.Object, d time.Duration, progress func(string)) error {
	steps := []liverun.Step{{After: time.Second, Name: "create " + object.String(), Do: func(ctx context.Context, c *cluster.Client) error {
		_, err := c.Create(ctx, object)
		return err
	}}}
	if then != nil {
		steps = append(steps, liverun.Step{After: d / 2, Name: "replace " + then.String(), Do: func(ctx context.Context, c *cluster.Client) error {
			_, err := c.Replace(ctx, then)
			return err
		}})
	}
	steps = append(steps, liverun.Step{After: d, Name: "delete " + object.String(), Do: func(ctx context.Context, c *cluster.Client) error {
		return c.Delete(ctx, object)
	}})
	err := run.Play(ctx, client, steps, d+linger, progress)
	if err != nil {
		// Leave nothing behind in the cluster (it may be the user's).
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = client.Delete(cleanup, object)
	}
	progress(fmt.Sprintf("stopping the patched controller (pid %d)", run.Process.PID()))
	if _, serr := run.Stop(); err == nil {
		err = serr
	}
	return err
}

// throwawayCluster builds (once) and starts etcd and kube-apiserver at the
// Kubernetes version of the tree's client-go.
func throwawayCluster(ctx context.Context, dir string, progress func(string)) (*cluster.Cluster, error) {
	minor, err := cluster.ClientGoMinor(dir)
	if err != nil {
		return nil, fail.Usage("%w", err)
	}
	progress(fmt.Sprintf("finding the newest Kubernetes %s release on the Go module proxy", minor))
	v, err := cluster.Resolve(ctx, minor, cluster.BuildEnv)
	if err != nil {
		return nil, err
	}
	bins, err := cluster.Ensure(ctx, "", v, progress)
	if err != nil {
		return nil, err
	}
	return cluster.Start(ctx, bins, progress)
}
