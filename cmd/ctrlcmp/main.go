// Command ctrlcmp says where each part of a Kubernetes controller lives, with
// file:line citations. See `ctrlcmp --help`.
package main

import (
	"os"

	"github.com/ctrlcmp/ctrlcmp/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
