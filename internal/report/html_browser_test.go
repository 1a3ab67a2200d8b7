package report_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// shots is -shots: TestHTMLShots takes the screenshots of the page in
// $CTRLCMP_HTML_FILE (a page written by table --format html).
var shots = flag.Bool("shots", false, "TestHTMLShots: take screenshots of the page in $CTRLCMP_HTML_FILE into $CTRLCMP_ARTIFACTS")

// browser starts a headless Chromium for the test ($CHROMIUM, else
// /usr/bin/chromium, else chromium on $PATH), with an empty profile, no
// sandbox and nothing of its own on the network; the test is skipped when
// there is none.
func browser(t *testing.T) context.Context {
	t.Helper()
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
		if _, err := os.Stat(bin); err != nil {
			bin, _ = exec.LookPath("chromium")
		}
	}
	if bin == "" {
		t.Skip("no browser: install Debian's chromium (apt-get install chromium), or name one in $CHROMIUM")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first action starts the browser, under no deadline (a deadline
	// on it would stop the browser); later ones are guarded by guard.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx
}

// guard bounds one step in the browser: a guard against a hang, not a
// timed assertion.
func guard(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// artifacts is the directory screenshots go to: $CTRLCMP_ARTIFACTS, else
// the test's temporary directory.
func artifacts(t *testing.T) string {
	if dir := os.Getenv("CTRLCMP_ARTIFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// screenshot saves the whole page, width pixels wide, as a PNG.
func screenshot(t *testing.T, ctx context.Context, width int64, dark bool, file string) {
	t.Helper()
	shoot(t, ctx, width, dark, chromedp.FullScreenshot(100), file)
}

// shoot takes a screenshot with the viewport width pixels wide, in the
// light or the dark colour scheme, and saves it to file.
func shoot(t *testing.T, ctx context.Context, width int64, dark bool, take chromedp.Action[[]byte], file string) {
	t.Helper()
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	guard(t, ctx, chromedp.EmulateViewport(width, 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	png, err := chromedp.Run(ctx, take)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot at %d px: %s (%d bytes)", width, file, len(png))
}

// TestHTMLInBrowser opens the page of the fixture pair as a person would:
// the keyboard moves to the re-read row and opens it, both sides' excerpts
// show, each marks the line the row cites; then screenshots at a desk's
// width and a phone's.
func TestHTMLInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "compare.html")
	if err := os.WriteFile(page, htmlPage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	guard(t, ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate("file://"+filepath.ToSlash(page)))
	if n := eval[int](t, ctx, `performance.getEntriesByType("resource").length`); n != 0 {
		t.Errorf("the page loaded %d resources; it must hold everything itself", n)
	}

	const row = locate.RowReread
	focused := func() string {
		return eval[string](t, ctx, `(document.activeElement && document.activeElement.closest("details")) ? document.activeElement.tagName + " " + document.activeElement.closest("details").id : ""`)
	}
	presses := 0
	for ; focused() != "SUMMARY row-"+row; presses++ {
		if presses == 40 {
			t.Fatalf("40 Tab presses did not reach the %s row's summary (focus: %q)", row, focused())
		}
		guard(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	guard(t, ctx, chromedp.KeyEvent(kb.Enter))
	if !eval[bool](t, ctx, fmt.Sprintf(`document.getElementById(%q).open`, "row-"+row)) {
		t.Fatalf("Enter on the %s row's summary did not open it", row)
	}
	t.Logf("%d Tab presses reached the %s row; Enter opened it", presses, row)

	for i, s := range table(t) {
		site, _ := s.Controller.Rows[row].Primary()
		sel := fmt.Sprintf(`document.querySelectorAll("#row-%s .sides > section")[%d]`, row, i)
		if !eval[bool](t, ctx, sel+`.checkVisibility()`) {
			t.Errorf("%s: the excerpt is not visible", s.Tree.Side)
			continue
		}
		mark := sel + `.querySelector(".panel:not([hidden]) mark[aria-current]")`
		if !eval[bool](t, ctx, mark+` !== null && `+mark+`.checkVisibility()`) {
			t.Errorf("%s: no visible marked line", s.Tree.Side)
			continue
		}
		if got := eval[string](t, ctx, mark+`.dataset.line`); got != fmt.Sprint(site.Line) {
			t.Errorf("%s: the marked line is %s, want the cited %d", s.Tree.Side, got, site.Line)
		}
		if got := eval[string](t, ctx, mark+`.querySelector(".cl").textContent`); strings.TrimSpace(got) != strings.TrimSpace(site.Text) {
			t.Errorf("%s: the marked line reads %q, want the cited %q", s.Tree.Side, got, site.Text)
		}
	}
	out := artifacts(t)
	screenshot(t, ctx, 1280, false, filepath.Join(out, "fixture-1280.png"))
	screenshot(t, ctx, 390, false, filepath.Join(out, "fixture-390.png"))
	screenshot(t, ctx, 1280, true, filepath.Join(out, "fixture-1280-dark.png"))
}

// TestHTMLShots (under -shots) takes screenshots of the page in
// $CTRLCMP_HTML_FILE, its first row open (a table's), at 1280 and 390 px wide, into
// $CTRLCMP_ARTIFACTS as NAME-1280.png and NAME-390.png (NAME the page's
// file name without .html), with NAME-1280-dark.png in the dark colour
// scheme and NAME-1280-top.png, the first screenful. The page must be
// under 1 MB.
func TestHTMLShots(t *testing.T) {
	if !*shots {
		t.Skip("screenshots of a page of your own: go test -run TestHTMLShots -shots with CTRLCMP_HTML_FILE=PAGE and CTRLCMP_ARTIFACTS=DIR")
	}
	file := os.Getenv("CTRLCMP_HTML_FILE")
	if file == "" {
		t.Fatal("-shots takes the page from $CTRLCMP_HTML_FILE; set it to a page table --format html wrote")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		t.Fatalf("$CTRLCMP_HTML_FILE: %v", err)
	}
	// A page is one file to attach or mail: it stays under 1 MB.
	if st.Size() >= 1<<20 {
		t.Errorf("%s is %d bytes; a page must stay under 1 MB", abs, st.Size())
	}
	t.Logf("%s: %d bytes", abs, st.Size())
	ctx := browser(t)
	guard(t, ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate("file://"+filepath.ToSlash(abs)))
	eval[bool](t, ctx, `(function () { var d = document.querySelector("details.row"); if (d) d.open = true; return true; })()`)
	out := artifacts(t)
	name := strings.TrimSuffix(filepath.Base(abs), ".html")
	screenshot(t, ctx, 1280, false, filepath.Join(out, name+"-1280.png"))
	screenshot(t, ctx, 390, false, filepath.Join(out, name+"-390.png"))
	screenshot(t, ctx, 1280, true, filepath.Join(out, name+"-1280-dark.png"))
	// The top of the page, as a reader first sees it: small enough for a
	// README.
	shoot(t, ctx, 1280, false, chromedp.CaptureScreenshot(), filepath.Join(out, name+"-1280-top.png"))
}

// TestStagesHTMLInBrowser opens the stages page of the client-go fixture:
// the keyboard reaches the first arrow's link and follows it to the
// excerpt of its site, which marks the cited line.
func TestStagesHTMLInBrowser(t *testing.T) {
	ctx := browser(t)
	tr := trees(t)[1]
	var b bytes.Buffer
	if err := report.StagesHTML(&b, report.TreeFiles(filepath.Join("..", "..", "testdata", "src", tr.Root), ""), tr, tr.Controllers[0]); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "stages.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	guard(t, ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate("file://"+filepath.ToSlash(page)))
	presses := 0
	for ; eval[string](t, ctx, `document.activeElement.closest("svg") ? document.activeElement.getAttribute("href") : ""`) == ""; presses++ {
		if presses == 20 {
			t.Fatal("20 Tab presses did not reach an arrow's link")
		}
		guard(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	target := eval[string](t, ctx, `document.activeElement.getAttribute("href")`)
	guard(t, ctx, chromedp.KeyEvent(kb.Enter))
	if got := eval[string](t, ctx, `location.hash`); got != target {
		t.Fatalf("Enter on the arrow's link went to %q, want %q", got, target)
	}
	watch := tr.Controllers[0].Stages[locate.StageWatch].Sites[0]
	mark := fmt.Sprintf(`document.querySelector(%q)`, target+" mark[aria-current]")
	if !eval[bool](t, ctx, mark+` !== null && `+mark+`.checkVisibility()`) {
		t.Fatalf("%s: no visible marked line", target)
	}
	if got := eval[string](t, ctx, mark+`.dataset.line`); got != fmt.Sprint(watch.Line) {
		t.Errorf("the first arrow's excerpt marks line %s, want the watch stage's %d", got, watch.Line)
	}
	t.Logf("%d Tab presses reached the first arrow's link; Enter followed it to %s", presses, target)
	screenshot(t, ctx, 390, false, filepath.Join(artifacts(t), "stages-390.png"))
}
