package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// bigGo is a Go file of funcs functions, four lines each, every line
// different from the others.
func bigGo(funcs int) string {
	var b strings.Builder
	b.WriteString("package controller\n")
	for i := 0; i < funcs; i++ {
		fmt.Fprintf(&b, "func f%05d(x int) int {\n\ty := x + %d\n\treturn y * %d\n}\n", i, i, i)
	}
	return b.String()
}

// largeJournal writes a repository holding the small operator of
// operatorRepo and big.go, a file of 4,000 lines, and a journal of n
// citations of big.go's lines (generated links, with their anchors, and
// hand-typed citations in prose), and commits it. A later commit adds a
// line at the top of big.go, so every citation has moved one line down.
// It returns the journal's path and the lines its citations name, in order.
func largeJournal(t testing.TB, n int) (string, []int) {
	const funcs = 1000
	src := bigGo(funcs)
	lines := strings.Split(src, "\n")
	var b strings.Builder
	b.WriteString("# A large journal\n\n")
	var cited []int
	for i := 0; i < n; i++ {
		fn := i * 7919 % funcs // spread over the file
		line := 2 + 4*fn + 1   // its "y := x + N" line
		cited = append(cited, line)
		if i%2 == 0 {
			fmt.Fprintf(&b, "- [big.go:%d](../operator/big.go#L%d \"ctrlcmp f%05d %s\") adds %d,\n", line, line, fn, cite.Anchor(lines[line-1]), i)
		} else {
			fmt.Fprintf(&b, "- and `operator/big.go:%d` adds it too (%d).\n", line, i)
		}
	}
	root, repo := operatorRepo(t, "# A large journal\n")
	writeFile(t, root, "operator/big.go", src)
	writeFile(t, root, "journal/04-controllers.md", b.String())
	commitAll(t, repo, "big.go, and the journal citing it")
	writeFile(t, root, "operator/big.go", "// Package controller holds big.go.\n"+src)
	commitAll(t, repo, "document big.go")
	return filepath.Join(root, "journal", "04-controllers.md"), cited
}

// TestLargeJournal checks a journal of many citations of one file, every
// one of them moved: each is reported once, with its new place.
func TestLargeJournal(t *testing.T) {
	const n = 3000
	file, cited := largeJournal(t, n)
	res, err := Check(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != n {
		t.Fatalf("%d findings, want %d", len(res.Findings), n)
	}
	for i, f := range res.Findings {
		want := fmt.Sprintf("moved: %s:%d → %s:%d", f.Citation.Path, cited[i], f.Citation.Path, cited[i]+1)
		if f.Status != Moved || f.Message != want {
			t.Fatalf("line %d: %s %q, want %q", f.Citation.Line, f.Status, f.Message, want)
		}
	}
}

// BenchmarkCheckLargeJournal checks a journal of 128k citations (about
// 8 MB), every one moved:
//
//	go test ./internal/journal -run '^$' -bench LargeJournal -benchtime 1x
func BenchmarkCheckLargeJournal(b *testing.B) {
	const n = 128 << 10
	file, _ := largeJournal(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Check(context.Background(), file, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) != n {
			b.Fatalf("%d findings, want %d", len(res.Findings), n)
		}
	}
}
