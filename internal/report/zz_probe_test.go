package report_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

func TestZZProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	ctx := browser(t)
	w, _ := strconv.Atoi(os.Getenv("PROBE_W"))
	if w == 0 {
		w = 1280
	}
	guard(t, ctx, chromedp.EmulateViewport(int64(w), 1000), chromedp.Navigate("file://"+os.Getenv("PROBE")))
	if m := os.Getenv("PROBE_MEDIA"); m != "" {
		guard(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
			return err
		}))
	}
	if js := os.Getenv("PROBE_JS"); js != "" {
		t.Log(eval[string](t, ctx, js))
	}
	if out := os.Getenv("PROBE_OUT"); out != "" {
		ctx2, cancel := context.WithCancel(ctx)
		defer cancel()
		png, err := chromedp.Run(ctx2, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(out, png, 0o644)
	}
}
