package fetch

import (
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// revision is a parsed REV: a full sha, or a name to resolve (a tag, a
// branch, or an abbreviated sha).
type revision struct {
	text        string // as given
	sha         string // the full sha, when text is one
	abbreviated bool   // text may be an abbreviated sha (it may also name a ref)
}

// minAbbreviated is the fewest hex digits accepted as an abbreviated sha,
// as git does.
const minAbbreviated = 4

// parseRev checks a REV's form; it never touches the network.
func parseRev(rev string) (revision, error) {
	if rev == "" {
		return revision{}, fail.Usage("no revision given; give a full 40-hex sha, a tag or a branch")
	}
	if isHex(rev) {
		lower := strings.ToLower(rev)
		switch {
		case len(rev) == 40:
			return revision{text: rev, sha: lower}, nil
		case len(rev) > 40:
			return revision{}, fail.Usage("revision %q has %d hex digits; a full sha has 40", rev, len(rev))
		case len(rev) >= minAbbreviated:
			return revision{text: lower, abbreviated: true}, nil
		}
	}
	if why := badRefName(rev); why != "" {
		return revision{}, fail.Usage("revision %q is not a sha, tag or branch: %s", rev, why)
	}
	return revision{text: rev}, nil
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return s != ""
}

// badRefName says why name cannot be a git reference name (the rules of
// git check-ref-format), or "" when it can.
func badRefName(name string) string {
	switch {
	case strings.HasPrefix(name, "-"):
		return "it starts with '-'"
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/"):
		return "it starts or ends with '/'"
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock"):
		return "it ends with '.' or '.lock'"
	case strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{") || name == "@":
		return "it contains '..', '//' or '@{'"
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return "it contains a space, a control character or one of ~^:?*[\\"
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return "a component starts with '.'"
		}
	}
	return ""
}
