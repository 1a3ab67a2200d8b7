package journal

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/redact"
)

const (
	beginMarker = "<!-- ctrlcmp:begin"
	endMarker   = "<!-- ctrlcmp:end -->"
)

// Fence is a region of generated text in a journal:
//
//	<!-- ctrlcmp:begin id=table/Kustomization/Widget repo=https://github.com/fluxcd/kustomize-controller sha=186fb3b… dirs=../operator version=v0.1.0 -->
//	…
//	<!-- ctrlcmp:end -->
//
// The begin line holds key=value fields (values percent-escaped where they
// would hold white space, ">" or "%"); unknown keys are ignored, so later
// versions may add fields.
type Fence struct {
	ID      string // which generated text this is; one fence per ID
	Repo    string // the pinned tree's repository URL, if any
	Sha     string // the pinned tree's commit
	Version string // the ctrlcmp version that wrote it
	// Checkout is where the pinned tree was checked out when the text was
	// generated from it, relative to the journal's directory, or "" when
	// the text cites the pinned tree by permalinks: citations into that
	// directory are read in the pinned tree, so they hold where the
	// checkout is not (in CI).
	Checkout string
	// Dirs are the local trees the generated text cites, relative to the
	// journal's directory: plain path:line citations in the fence (the
	// reasons of "none" cells) are relative to one of them.
	Dirs []string

	BeginLine, EndLine int // journal lines of the markers
	Start, End         int // byte offsets: the begin marker's "<" to just past the end marker's ">"
}

// pinned reports whether the fence pins a tree: a repository at a full
// commit sha.
func (f Fence) pinned() bool { return f.Repo != "" && isFullSha(f.Sha) }

// intoCheckout returns the path inside the pinned tree of p, a path
// relative to the journal's directory, when p leads into the fence's local
// checkout of that tree.
func (f Fence) intoCheckout(p string) (string, bool) {
	if f.Checkout == "" || !f.pinned() {
		return "", false
	}
	dir, p := path.Clean(f.Checkout), path.Clean(p)
	if dir == "." {
		return p, filepath.IsLocal(filepath.FromSlash(p))
	}
	rel, ok := strings.CutPrefix(p, dir+"/")
	return rel, ok && filepath.IsLocal(filepath.FromSlash(rel))
}

// Region is generated text to put into a journal's fence.
type Region struct {
	ID, Repo, Sha, Version string
	Checkout               string   // see Fence.Checkout
	Dirs                   []string // see Fence.Dirs
	Body                   string   // markdown, lines ending in "\n"
}

func (r Region) beginLine() string {
	var b strings.Builder
	b.WriteString(beginMarker)
	dirs := make([]string, len(r.Dirs))
	for i, d := range r.Dirs {
		dirs[i] = strings.ReplaceAll(escapeField(d), ",", "%2C")
	}
	for _, kv := range [][2]string{{"id", escapeField(r.ID)}, {"repo", escapeField(r.Repo)}, {"sha", escapeField(r.Sha)},
		{"checkout", escapeField(r.Checkout)}, {"dirs", strings.Join(dirs, ",")}, {"version", escapeField(r.Version)}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	b.WriteString(" -->")
	return b.String()
}

var fieldEscaper = strings.NewReplacer("%", "%25", " ", "%20", "\t", "%09", "\r", "%0D", "\n", "%0A", ">", "%3E")

func escapeField(v string) string { return fieldEscaper.Replace(v) }

// parseBegin reads a begin line's fields; msg is not empty when the line is
// malformed.
func parseBegin(trimmed string) (f Fence, msg string) {
	rest, ok := strings.CutSuffix(strings.TrimPrefix(trimmed, beginMarker), "-->")
	if !ok {
		return f, "the ctrlcmp:begin line does not end with -->; keep the whole comment on one line"
	}
	for _, field := range strings.Fields(rest) {
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			return f, fmt.Sprintf("the ctrlcmp:begin line has %q, not key=value; regenerate it with ctrlcmp table --journal", field)
		}
		if k == "dirs" {
			for _, d := range strings.Split(v, ",") {
				if u, err := url.PathUnescape(d); err == nil && u != "" {
					f.Dirs = append(f.Dirs, u)
				}
			}
			continue
		}
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		switch k {
		case "id":
			f.ID = v
		case "repo":
			f.Repo = v
		case "sha":
			f.Sha = v
		case "checkout":
			f.Checkout = v
		case "version":
			f.Version = v
		}
	}
	return f, ""
}

// Splice returns src with r in the fence of the same ID: the fence's text
// replaced when there is one, or a new fence appended (after a blank line)
// when there is none. Every byte outside the fence is kept, and the fence
// uses the journal's line ending (CRLF or LF). Splice is idempotent. It
// fails, naming the line, on malformed fences (a *MalformedError, two
// fences with one ID included), and when the result would not read back as
// the fence written (a journal ending inside an unclosed code block).
func Splice(src []byte, r Region) ([]byte, error) {
	d := Parse(src)
	if err := d.malformed(); err != nil {
		return nil, err
	}
	found := -1
	for i, f := range d.Fences {
		if f.ID == r.ID {
			found = i
		}
	}
	var out bytes.Buffer
	var at int
	if found >= 0 {
		f := d.Fences[found]
		eol := lineEnding(src, f.Start)
		out.Write(src[:f.Start])
		at = out.Len()
		out.WriteString(fenceText(r, eol))
		out.Write(src[f.End:])
	} else {
		eol := lineEnding(src, 0)
		out.Write(src)
		if len(src) > 0 {
			if !bytes.HasSuffix(src, []byte("\n")) {
				out.WriteString(eol)
			}
			out.WriteString(eol)
		}
		at = out.Len()
		out.WriteString(fenceText(r, eol))
		out.WriteString(eol)
	}
	for _, f := range Parse(out.Bytes()).Fences {
		if f.ID == r.ID && f.Start == at {
			return out.Bytes(), nil
		}
	}
	return nil, fmt.Errorf("the fence id=%s would not read back after writing (is the journal inside an unclosed ``` code block, or does the generated text hold a fence marker?); close the code block", r.ID)
}

// fenceText is the fence from its begin marker to its end marker's ">". No
// URL in it keeps its user-info: a journal is meant to be committed, and a
// credential must never reach it.
func fenceText(r Region, eol string) string {
	body := strings.ReplaceAll(r.Body, "\r\n", "\n")
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	text := redact.URLs(r.beginLine() + "\n" + body + endMarker)
	return strings.ReplaceAll(text, "\n", eol)
}

// lineEnding is the line ending of the line holding offset at, or of the
// journal's first line when that one has none: "\r\n" or "\n".
func lineEnding(src []byte, at int) string {
	for _, from := range []int{at, 0} {
		if i := bytes.IndexByte(src[from:], '\n'); i >= 0 {
			if i > 0 && src[from+i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}
