// Package journal keeps a reader's markdown journal honest: it writes
// ctrlcmp's generated table into a fenced region of the journal (leaving
// every other byte alone), and it checks that every citation in the journal,
// generated or typed by hand, still points at the code it meant, reading
// only files and git objects.
package journal

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Citation is one place in a journal that cites lines of source.
type Citation struct {
	Line       int    // the journal line holding it, from 1
	Start, End int    // byte offsets of the citation's text in the journal
	Text       string // the citation as written
	Path       string // the cited file, slash-separated, as written (inside the repository for a permalink)
	From, To   int    // the cited lines; To == From for one line
	Repo       string // for a permalink: the repository's address, such as https://github.com/OWNER/REPO
	Ref        string // for a permalink: the commit (or branch) in the link
	Symbol     string // from a generated citation's title: the enclosing symbol, if any
	Hash       string // from a generated citation's title: cite.Anchor of the cited line
	Link       bool   // a markdown link (its destination is the citation)
	Fence      int    // index in Doc.Fences of the fence holding it, or -1

	path, lines, label, symbol span   // where the parts are inside Text, for --fix
	lineStyle                  string // ":" for path:10-20, "#L" for path#L10-L20
}

// span is a half-open range of byte offsets; end 0 means absent.
type span struct{ start, end int }

func (s span) present() bool { return s.end > 0 }

// Location is the citation's file and lines in the form path:from[-to].
func (c Citation) Location() string { return location(c.Path, c.From, c.To) }

func location(path string, from, to int) string {
	if to != from {
		return path + ":" + strconv.Itoa(from) + "-" + strconv.Itoa(to)
	}
	return path + ":" + strconv.Itoa(from)
}

// Doc is what a journal holds: its ctrlcmp fences and its citations.
type Doc struct {
	Fences    []Fence
	Citations []Citation
	Problems  []Problem // malformed fences, in the order of the journal
}

// Problem is something wrong with the journal itself, at a line.
type Problem struct {
	Line    int
	Message string
}

// Parse finds the fences and citations in a journal. It never fails:
// malformed fences (and fences with the id of an earlier one) are returned
// as Problems, and an unclosed fence is dropped (its citations are read as
// prose). Citations inside fenced code
// blocks (``` or ~~~) are examples, not claims, and are skipped; so are
// citations in the fence comments themselves.
func Parse(src []byte) Doc {
	var d Doc
	var codeFence string // the opening run of an open code block, or ""
	open := -1           // index of the open ctrlcmp fence
	for start, n := 0, 1; start < len(src); n++ {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		next := end
		if next < len(src) {
			next++
		}
		text := strings.TrimSuffix(string(src[start:end]), "\r")
		trimmed := strings.TrimSpace(text)
		switch {
		case open >= 0 && strings.HasPrefix(trimmed, endMarker):
			// The end marker closes its fence even inside an unclosed
			// code block of the generated text.
			f := &d.Fences[open]
			f.EndLine = n
			f.End = start + strings.Index(text, endMarker) + len(endMarker)
			open, codeFence = -1, ""
		case codeFence != "":
			if closesCodeFence(trimmed, codeFence) {
				codeFence = ""
			}
		case strings.HasPrefix(trimmed, beginMarker):
			if open >= 0 {
				d.Problems = append(d.Problems, Problem{n, "a ctrlcmp:begin inside the fence opened at line " +
					strconv.Itoa(d.Fences[open].BeginLine) + "; add " + endMarker + " before it"})
				break
			}
			f, msg := parseBegin(trimmed)
			if msg != "" {
				d.Problems = append(d.Problems, Problem{n, msg})
			}
			f.BeginLine = n
			f.Start = start + strings.Index(text, beginMarker)
			d.Fences = append(d.Fences, f)
			open = len(d.Fences) - 1
		case strings.HasPrefix(trimmed, endMarker):
			d.Problems = append(d.Problems, Problem{n, endMarker + " without a ctrlcmp:begin before it; remove it or add the begin line"})
		case opensCodeFence(trimmed) != "":
			codeFence = opensCodeFence(trimmed)
		default:
			for _, c := range lineCitations(text) {
				c.Line, c.Fence = n, open
				c.Start += start
				c.End += start
				d.Citations = append(d.Citations, c)
			}
		}
		start = next
	}
	if open >= 0 {
		d.Problems = append(d.Problems, Problem{d.Fences[open].BeginLine, "ctrlcmp:begin without " + endMarker + "; add the end line after the generated text"})
		d.Fences = d.Fences[:open]
		for i := range d.Citations {
			if d.Citations[i].Fence == open {
				d.Citations[i].Fence = -1
			}
		}
	}
	first := map[string]int{} // id -> the begin line of its first fence
	for _, f := range d.Fences {
		if f.ID == "" {
			continue
		}
		if line, ok := first[f.ID]; ok {
			d.Problems = append(d.Problems, Problem{f.BeginLine, fmt.Sprintf("a second fence with id=%s (the first is at line %d); delete one of them", f.ID, line)})
			continue
		}
		first[f.ID] = f.BeginLine
	}
	slices.SortStableFunc(d.Problems, func(a, b Problem) int { return a.Line - b.Line })
	return d
}

// MalformedError is a journal whose ctrlcmp fences cannot be read: a begin
// line without its end, an end without its begin, a fence inside a fence, a
// begin line that is not key=value fields, or two fences with one id.
type MalformedError struct {
	Problems []Problem // in the order of the journal; at least one
}

func (e *MalformedError) Error() string {
	p := e.Problems[0]
	msg := fmt.Sprintf("line %d: %s", p.Line, p.Message)
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problem(s) with its ctrlcmp fences)", n)
	}
	return msg
}

// malformed is a *MalformedError when the journal's fences cannot be read,
// else nil.
func (d Doc) malformed() error {
	if len(d.Problems) == 0 {
		return nil
	}
	return &MalformedError{Problems: d.Problems}
}

// opensCodeFence returns the run of backticks or tildes opening a fenced
// code block on the line, or "".
func opensCodeFence(trimmed string) string {
	for _, ch := range []byte{'`', '~'} {
		n := 0
		for n < len(trimmed) && trimmed[n] == ch {
			n++
		}
		if n >= 3 && (ch == '~' || !strings.Contains(trimmed[n:], "`")) {
			return trimmed[:n]
		}
	}
	return ""
}

func closesCodeFence(trimmed, opening string) bool {
	return strings.HasPrefix(trimmed, opening) && strings.Trim(trimmed, opening[:1]) == ""
}

// lineCitations finds the citations on one line (without its line ending);
// offsets are relative to the line.
func lineCitations(line string) []Citation {
	var out []Citation
	var taken []span
	code := codeSpans(line)
	for _, l := range links(line, code) {
		taken = append(taken, span{l.start, l.end})
		if c, ok := linkCitation(line, l); ok {
			out = append(out, c)
		}
	}
	for _, m := range urlPattern.FindAllStringIndex(line, -1) {
		for m[1] > m[0] && strings.IndexByte(".,;:!?*_", line[m[1]-1]) >= 0 { // punctuation after a URL ends the sentence
			m[1]--
		}
		if overlaps(taken, m[0], m[1]) {
			continue
		}
		taken = append(taken, span{m[0], m[1]})
		if c, ok := permalink(line[m[0]:m[1]]); ok {
			c.Start, c.End = m[0], m[1]
			out = append(out, c)
		}
	}
	for _, m := range pathSpans(line) {
		start, pathEnd, end := m[0], m[1], m[2]
		if overlaps(taken, start, end) || start > 0 && isPathByte(line[start-1]) || end < len(line) && isWordByte(line[end]) {
			continue
		}
		c, ok := pathCitation(line[start:end], pathEnd-start)
		if !ok {
			continue
		}
		c.Start, c.End = start, end
		out = append(out, c)
	}
	sortCitations(out)
	return out
}

func sortCitations(cs []Citation) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Start < cs[j-1].Start; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func overlaps(spans []span, start, end int) bool {
	for _, s := range spans {
		if start < s.end && s.start < end {
			return true
		}
	}
	return false
}

func isPathByte(b byte) bool {
	return isWordByte(b) || strings.IndexByte("./@+~-", b) >= 0
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// pathSpans finds the shapes of hand-typed citations on a line: a run of
// path bytes ([\w.@+~/-]) followed by :10, :10-20, #L10, #L10-20 or
// #L10-L20, leftmost first and without overlap (as the regular expression
// ([\w.@+~/-]+)(:\d+(-\d+)?|#L\d+(-L?\d+)?) would find them, in one pass).
// Each is {start, end of the path, end}.
func pathSpans(line string) [][3]int {
	var out [][3]int
	from := 0 // where the next one may start
	for i := 0; i < len(line); i++ {
		end := -1
		switch {
		case line[i] == ':':
			end = lineNumbers(line, i+1, false)
		case line[i] == '#' && i+1 < len(line) && line[i+1] == 'L':
			end = lineNumbers(line, i+2, true)
		}
		if end < 0 {
			continue
		}
		start := i
		for start > from && isPathByte(line[start-1]) {
			start--
		}
		if start == i {
			continue
		}
		out = append(out, [3]int{start, i, end})
		from, i = end, end-1
	}
	return out
}

// lineNumbers matches 10 or 10-20 (after #L also 10-L20) at line[i:] and
// returns where it ends, or -1.
func lineNumbers(line string, i int, fragment bool) int {
	j := digitsEnd(line, i)
	if j == i {
		return -1
	}
	if j < len(line) && line[j] == '-' {
		k := j + 1
		if fragment && k < len(line) && line[k] == 'L' {
			k++
		}
		if e := digitsEnd(line, k); e > k {
			return e
		}
	}
	return j
}

// digitsEnd is where the run of ASCII digits at line[i:] ends.
func digitsEnd(line string, i int) int {
	for i < len(line) && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	return i
}

var (
	// urlPattern is any http(s) URL; only GitHub blob links with a line
	// fragment are citations, the rest are skipped whole.
	urlPattern = regexp.MustCompile(`https?://[^\s<>()\[\]"'` + "`" + `]+`)
	// blobPattern is a blob link with a line fragment, as GitHub (and
	// ctrlcmp, for any repository with web pages) writes it.
	blobPattern = regexp.MustCompile(`^(https?://[^/\s]+/[^\s#?]+?)/blob/([^/#?]+)/([^#?]+)#(L\d+(?:-L?\d+)?)$`)
	// lineFragment is the #L10-L20 of a link.
	lineFragment = regexp.MustCompile(`^(.+)#(L\d+(?:-L?\d+)?)$`)
)

// sourceExtensions are the file name endings that make "name.ext:10" a
// citation without a directory in it (a path with a slash always is one).
var sourceExtensions = map[string]bool{
	"go": true, "mod": true, "sum": true, "yaml": true, "yml": true, "json": true, "toml": true,
	"md": true, "sh": true, "proto": true, "py": true, "rs": true, "ts": true, "js": true,
	"c": true, "h": true, "cc": true, "cpp": true, "java": true, "txt": true, "tpl": true, "tmpl": true, "cue": true,
}

// pathCitation parses "path:10-20" or "path#L10-L20"; the path is
// text[:pathEnd].
func pathCitation(text string, pathEnd int) (Citation, bool) {
	p := text[:pathEnd]
	if strings.HasSuffix(p, "/") || strings.Trim(p, ".") == "" {
		return Citation{}, false
	}
	ext := p[strings.LastIndexByte(p, '.')+1:]
	if !strings.Contains(p, "/") && (!strings.Contains(p, ".") || !sourceExtensions[ext]) {
		return Citation{}, false
	}
	c := Citation{Text: text, Path: p, path: span{0, pathEnd}, lineStyle: text[pathEnd:min(pathEnd+2, len(text))]}
	if c.lineStyle != "#L" {
		c.lineStyle = ":"
	}
	if !c.setLines(text[pathEnd+len(c.lineStyle):]) {
		return Citation{}, false
	}
	c.lines = span{pathEnd, len(text)}
	return c, true
}

// setLines parses "10", "10-20" or "10-L20".
func (c *Citation) setLines(s string) bool {
	from, to, isRange := strings.Cut(s, "-")
	var err error
	if c.From, err = strconv.Atoi(from); err != nil {
		return false
	}
	c.To = c.From
	if isRange {
		if c.To, err = strconv.Atoi(strings.TrimPrefix(to, "L")); err != nil {
			return false
		}
	}
	return true
}

// permalink parses a blob link with a line fragment: on GitHub at any
// ref, elsewhere only at a full commit sha.
func permalink(url string) (Citation, bool) {
	m := blobPattern.FindStringSubmatchIndex(url)
	if m == nil || !strings.HasPrefix(url, "https://github.com/") && !isFullSha(url[m[4]:m[5]]) {
		return Citation{}, false
	}
	c := Citation{Text: url, Repo: url[m[2]:m[3]], Ref: url[m[4]:m[5]], Path: url[m[6]:m[7]],
		path: span{m[6], m[7]}, lines: span{m[7], m[9]}, lineStyle: "#L"}
	if !c.setLines(url[m[8]+1 : m[9]]) {
		return Citation{}, false
	}
	return c, true
}

// link is an inline markdown link [label](dest "title") on a line.
type link struct {
	start, end       int // the whole link
	label, dest, tit span
}

// links finds the inline links on a line outside its code spans.
func links(line string, code []span) []link {
	var out []link
	for i := 0; i < len(line); i++ {
		if line[i] != '[' || overlaps(code, i, i+1) || i > 0 && line[i-1] == '\\' {
			continue
		}
		l, ok := parseLink(line, i)
		if ok {
			out = append(out, l)
			i = l.end - 1
		}
	}
	return out
}

func parseLink(line string, open int) (link, bool) {
	depth, i := 0, open
	for ; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if i+1 >= len(line) || line[i+1] != '(' {
		return link{}, false
	}
	l := link{start: open, label: span{open + 1, i}}
	j := i + 2
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j < len(line) && line[j] == '<' {
		k := strings.IndexByte(line[j:], '>')
		if k < 0 {
			return link{}, false
		}
		l.dest = span{j + 1, j + k}
		j += k + 1
	} else {
		k := j
		for k < len(line) && line[k] != ' ' && line[k] != ')' {
			k++
		}
		l.dest = span{j, k}
		j = k
	}
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j < len(line) && (line[j] == '"' || line[j] == '\'') {
		k := strings.IndexByte(line[j+1:], line[j])
		if k < 0 {
			return link{}, false
		}
		l.tit = span{j + 1, j + 1 + k}
		j += k + 2
		for j < len(line) && line[j] == ' ' {
			j++
		}
	}
	if j >= len(line) || line[j] != ')' || l.dest.start == l.dest.end {
		return link{}, false
	}
	l.end = j + 1
	return l, true
}

// linkCitation makes a citation of a link whose destination cites lines:
// a GitHub permalink, or a path with a #L fragment.
func linkCitation(line string, l link) (Citation, bool) {
	dest := line[l.dest.start:l.dest.end]
	var c Citation
	var ok bool
	if strings.Contains(dest, "://") {
		c, ok = permalink(dest)
	} else if m := lineFragment.FindStringSubmatchIndex(dest); m != nil && !strings.HasPrefix(dest, "#") {
		c, ok = Citation{Path: dest[:m[3]], path: span{0, m[3]}, lines: span{m[3], len(dest)}, lineStyle: "#L"}, true
		ok = c.setLines(dest[m[4]+1 : m[5]])
	}
	if !ok {
		return Citation{}, false
	}
	base := l.dest.start - l.start
	c.path = span{c.path.start + base, c.path.end + base}
	c.lines = span{c.lines.start + base, c.lines.end + base}
	c.Start, c.End, c.Text, c.Link = l.start, l.end, line[l.start:l.end], true
	label := line[l.label.start:l.label.end]
	// A label naming the place ("file.go:129") is rewritten with it.
	for _, suffix := range []string{path.Base(c.Path) + ":" + strconv.Itoa(c.From), ":" + strconv.Itoa(c.From)} {
		if strings.HasSuffix(label, suffix) {
			c.label = span{l.label.end - l.start - len(suffix), l.label.end - l.start}
			break
		}
	}
	if l.tit.present() {
		title := line[l.tit.start:l.tit.end]
		if rest, ok := strings.CutPrefix(title, "ctrlcmp "); ok {
			fields := strings.Fields(rest)
			if n := len(fields); n > 0 && isAnchorHash(fields[n-1]) {
				c.Hash = fields[n-1]
				if sym := strings.TrimSpace(rest[:strings.LastIndex(rest, c.Hash)]); sym != "" {
					c.Symbol = sym
					at := l.tit.start + len("ctrlcmp ") + strings.Index(rest, sym) - l.start
					c.symbol = span{at, at + len(sym)}
				}
			}
		}
	}
	return c, true
}

func isAnchorHash(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// codeSpans finds the backtick code spans on a line: a run of n backticks
// up to the next run of exactly n.
func codeSpans(line string) []span {
	var out []span
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := backtickRun(line, i)
		closing := -1
		for j := i + n; j < len(line) && closing < 0; {
			if line[j] != '`' {
				j++
				continue
			}
			m := backtickRun(line, j)
			if m == n {
				closing = j
			}
			j += m
		}
		if closing < 0 {
			i += n
			continue
		}
		out = append(out, span{i, closing + n})
		i = closing + n
	}
	return out
}

func backtickRun(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}
