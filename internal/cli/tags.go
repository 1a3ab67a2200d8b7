package cli

import "github.com/spf13/pflag"

// tagsFlag registers --tags, the build tags a tree is loaded (and, with
// stages --run, built) with.
func tagsFlag(fs *pflag.FlagSet, tags *[]string) {
	fs.StringSliceVar(tags, "tags", nil, "build tags to load the tree with, comma-separated, as go build -tags takes them (a controller in a file behind a //go:build line needs its tags)")
}
