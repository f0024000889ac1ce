// Command screenshot makes the README's picture of the viewer: the guard
// demo's level running, its statechart drawn as in guard.scxml, a guard
// followed while it fights. It needs Chromium.
//
//	cd viewer/browser && go run ./screenshot -o ../../docs/viewer.png
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fsmforge/fsmforge/examples/guard"
	"github.com/fsmforge/fsmforge/viewer"
)

func main() {
	out := flag.String("o", "viewer.png", "the PNG `FILE` to write")
	seed := flag.Uint64("seed", 3, "the guards' script's seed")
	flag.Parse()
	if err := shoot(*out, *seed); err != nil {
		log.Fatal(err)
	}
}

func shoot(out string, seed uint64) error {
	c, res, err := guard.Drawing()
	if err != nil {
		return err
	}
	l, err := guard.NewLevel(res.Table, 3, seed)
	if err != nil {
		return err
	}
	v := viewer.New(viewer.Options{})
	v.Add("guards", viewer.TableAgents(res.Table, l.Agents()), viewer.FromCompile(c, res))
	srv := httptest.NewServer(v.Handler())
	defer func() { v.Close(); srv.CloseClientConnections(); srv.Close() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for tick := uint64(0); ctx.Err() == nil; tick++ {
			v.Frame(tick)
			l.Step(func(*guard.Guard, string, string) {})
			time.Sleep(50 * time.Millisecond)
		}
	}()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.NoSandbox, chromedp.WindowSize(1280, 760),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	bctx, cancelT := context.WithTimeout(bctx, 60*time.Second)
	defer cancelT()
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/#token="+v.Token()),
		chromedp.WaitVisible(chromedp.CSS("#svg .state")),
		chromedp.SetValue(chromedp.CSS("#pick"), "0"),
		chromedp.Click(chromedp.CSS("#pickform button"))); err != nil {
		return err
	}
	// Wait until the guard fights (its weapon and its legs both active),
	// then pause there, so that the picture shows the parallel regions.
	fighting := `['aim', 'fire'].includes(document.querySelector('#agent').dataset.state)`
	if _, err := chromedp.Run(bctx, chromedp.Poll[chromedp.Void](fighting, chromedp.WithPollingTimeout(40*time.Second))); err != nil {
		return fmt.Errorf("the guard never fought: %w", err)
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#pause")), chromedp.Sleep(time.Second)); err != nil {
		return err
	}
	png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	return os.WriteFile(out, png, 0o644)
}
