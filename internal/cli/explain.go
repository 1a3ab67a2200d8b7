package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

const explainLong = `Explain one answer with its whole path of evidence.

ROW is a table row (reconcile-entry, reread, finalizer-const, finalizer-add,
finalizer-cleanup, finalizer-remove, condition-types, requeue-error,
requeue-success) or one of the answers the reader writes from the source:

  interval-trace  what the success requeue waits for: the return, each
                  function the duration passes through, the Spec field and
                  the CRD property that set it
  retry-trace     the same for the requeue after a failure
  writes          every write the reconcile can make, whether every
                  succeeding pass makes it, and the calls that reach it
  drift           where desired state is compared with the cluster, and what
                  applies the difference

Instead of PATH, --rev REV (with --repo URL) explains a pinned tree. ` + pinnedHelp

func newExplain(g *globals) *cobra.Command {
	var kind, repo, rev string
	var fetching fetchFlags
	c := &cobra.Command{
		Use:   "explain ROW (PATH | --rev REV [--repo URL])",
		Short: "Explain one row or answer with its whole path of evidence",
		Long:  explainLong,
		Example: `  ctrlcmp explain interval-trace ../kustomize-controller
  ctrlcmp explain writes ./my-operator --kind Widget`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fail.Usage("explain takes a ROW first, one of: %s", strings.Join(report.Explainable(), ", "))
			}
			known := false
			for _, r := range report.Explainable() {
				known = known || r == args[0]
			}
			if !known {
				return fail.Usage("unknown ROW %q; use one of: %s", args[0], strings.Join(report.Explainable(), ", "))
			}
			return pathOrRev(&rev)(c, args[1:])
		},
		RunE: func(c *cobra.Command, args []string) error {
			t, err := g.inspectSource(c.Context(), locateSource(args[1:], repo, rev), fetching, "", "")
			if err != nil {
				return err
			}
			ctrl, err := inspect.Select(t, kind, "--kind")
			if err != nil {
				return err
			}
			return report.Explain(c.OutOrStdout(), t, ctrl, args[0])
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "the controller to explain, when the tree holds several")
	c.Flags().StringVar(&repo, "repo", defaultTheirsRepo, "with --rev: the repository to fetch")
	c.Flags().StringVar(&rev, "rev", "", "a sha, tag or branch of --repo to fetch and explain instead of PATH")
	fetching.register(c.Flags())
	return c
}
