package report

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"golang.org/x/mod/module"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Files reads a file a citation names, by its path as cited: relative to
// the tree's root, or module@version/path for a file of a dependency.
type Files func(file string) ([]byte, error)

// TreeFiles reads the cited files of a tree whose citations are relative
// to root, and those of its dependencies from the module cache modCache
// ("" when there is none). A path that leaves its directory is refused.
func TreeFiles(root, modCache string) Files {
	return func(file string) ([]byte, error) {
		dir, rel := root, file
		if mod, rest, ok := strings.Cut(file, "@"); ok {
			ver, inside, ok := strings.Cut(rest, "/")
			if !ok || modCache == "" {
				return nil, fmt.Errorf("%s: no module cache to read it from", file)
			}
			escMod, err := module.EscapePath(mod)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			escVer, err := module.EscapeVersion(ver)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			dir, rel = filepath.Join(modCache, filepath.FromSlash(escMod)+"@"+escVer), inside
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return r.ReadFile(filepath.FromSlash(rel))
	}
}

// The chroma styles of the page: one for a light background (and paper),
// one for a dark one.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// highlighter turns the files a page cites into highlighted lines, each
// file read and highlighted once.
type highlighter struct {
	format *chromahtml.Formatter
	style  *chroma.Style
	files  map[string]*sourceFile
}

// sourceFile is one cited file: each line's tokens, and its text.
type sourceFile struct {
	tokens [][]chroma.Token
	text   []string
	err    error
}

func newHighlighter() *highlighter {
	return &highlighter{
		format: chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true)),
		style:  styles.Get(lightStyle),
		files:  map[string]*sourceFile{},
	}
}

// css is the highlighting's style sheet, emitted once: the light style on
// a light screen and on paper, the dark one on a dark screen.
func (h *highlighter) css() (string, error) {
	var b bytes.Buffer
	b.WriteString("@media print, (prefers-color-scheme: light) {\n")
	if err := h.format.WriteCSS(&b, styles.Get(lightStyle)); err != nil {
		return "", err
	}
	b.WriteString("}\n@media screen and (prefers-color-scheme: dark) {\n")
	if err := h.format.WriteCSS(&b, styles.Get(darkStyle)); err != nil {
		return "", err
	}
	b.WriteString("}\n")
	return b.String(), nil
}

// file reads and highlights a cited file of a tree (key names the tree).
func (h *highlighter) file(key string, read Files, file string) *sourceFile {
	k := key + "\x00" + file
	if f, ok := h.files[k]; ok {
		return f
	}
	f := &sourceFile{}
	h.files[k] = f
	if read == nil {
		f.err = fmt.Errorf("the tree's files are not on this machine")
		return f
	}
	data, err := read(file)
	if err != nil {
		f.err = err
		return f
	}
	lexer := lexers.Match(path.Base(file))
	if lexer == nil {
		lexer = lexers.Fallback
	}
	src := strings.ReplaceAll(strings.ToValidUTF8(string(data), "\uFFFD"), "\r\n", "\n")
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
	if err != nil {
		f.err = err
		return f
	}
	for _, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
		if n := len(line); n > 0 {
			line[n-1].Value = strings.TrimSuffix(line[n-1].Value, "\n")
		}
		var text strings.Builder
		for _, tok := range line {
			text.WriteString(tok.Value)
		}
		f.tokens = append(f.tokens, line)
		f.text = append(f.text, text.String())
	}
	return f
}

// highlight formats one line's tokens, without the first cut bytes of
// its indentation.
func (h *highlighter) highlight(line []chroma.Token, cut int) (template.HTML, error) {
	var toks []chroma.Token
	for _, tok := range line {
		n := min(cut, len(tok.Value))
		tok.Value, cut = tok.Value[n:], cut-n
		if tok.Value != "" {
			toks = append(toks, tok)
		}
	}
	var b bytes.Buffer
	if err := h.format.Format(&b, h.style, chroma.Literator(toks...)); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // chroma escapes each token
}

// indent is the white space a window of lines shares at their start
// (blank lines aside).
func indent(lines []string) string {
	common, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lead := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			common, first = lead, false
			continue
		}
		for !strings.HasPrefix(lead, common) {
			common = common[:len(common)-1]
		}
	}
	return common
}

// htmlExcerpt is a cited site with the lines around it.
type htmlExcerpt struct {
	File  string // as cited
	Line  int
	Label string // the file's base name and the line
	Href  template.URL
	Func  string
	Text  string // the cited line, as the analysis read it
	Lines []htmlLine
	// Missing says why there are no lines (the file could not be read).
	Missing string
	// Changed says the file on disk no longer reads, at the cited line,
	// what the analysis cited.
	Changed bool
}

// htmlLine is one line of an excerpt.
type htmlLine struct {
	N     int
	Code  template.HTML
	Cited bool
}

// excerpt cites a site of a tree with radius lines either side.
func (h *highlighter) excerpt(key string, t result.Tree, read Files, s cite.Site, radius int) htmlExcerpt {
	ex := htmlExcerpt{File: s.File, Line: s.Line, Label: fmt.Sprintf("%s:%d", path.Base(s.File), s.Line), Func: s.Func, Text: s.Text, Href: link(t, s.File, s.Line)}
	f := h.file(key, read, s.File)
	switch {
	case f.err != nil:
		ex.Missing = fmt.Sprintf("no excerpt: %v", f.err)
		return ex
	case s.Line < 1 || s.Line > len(f.text):
		ex.Missing = fmt.Sprintf("no excerpt: %s has %d lines, none numbered %d", s.File, len(f.text), s.Line)
		return ex
	}
	ex.Changed = strings.TrimSpace(f.text[s.Line-1]) != strings.TrimSpace(s.Text)
	from, to := max(1, s.Line-radius), min(len(f.text), s.Line+radius)
	cut := len(indent(f.text[from-1 : to]))
	for n := from; n <= to; n++ {
		code, err := h.highlight(f.tokens[n-1], cut)
		if err != nil {
			return htmlExcerpt{File: s.File, Line: s.Line, Label: ex.Label, Text: s.Text, Href: ex.Href, Missing: fmt.Sprintf("no excerpt: %v", err)}
		}
		ex.Lines = append(ex.Lines, htmlLine{N: n, Code: code, Cited: n == s.Line})
	}
	return ex
}

// link is a citation's link target, as markdown links it: none into a
// dependency or for a tree that cannot link.
func link(t result.Tree, file string, line int) template.URL {
	if t.Link == nil || strings.Contains(file, "@") {
		return ""
	}
	return template.URL(t.Link(file, line)) // made by ctrlcmp: a permalink or a file URL
}
