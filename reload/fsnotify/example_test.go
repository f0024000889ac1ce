package fsnotify_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats" // the drawing formats chart.Read reads
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/reload/fsnotify"
)

// save writes data to path as many editors save: into a temporary file
// beside it, renamed over it.
func save(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// edit renames a state of the SCXML drawing at path, and saves it.
func edit(path, from, to string) {
	src, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := save(path, bytes.ReplaceAll(src, []byte(`"`+from+`"`), []byte(`"`+to+`"`))); err != nil {
		log.Fatal(err)
	}
}

// art copies the Goomba's drawing and stencil into a new folder, as the
// designer's art folder, and returns the folder.
func art() string {
	dir, err := os.MkdirTemp("", "art")
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"goomba.scxml", "goomba.stencil.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "goomba", name))
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

// A game that reloads its drawings as the operating system tells it of
// each save, here the designer's renaming of a state.
func Example() {
	dir := art()
	defer os.RemoveAll(dir)

	n, err := fsnotify.New()
	if err != nil {
		log.Printf("%v; polling", err) // n is nil: the Reloader polls
	}
	r := reload.New(reload.Options{Notifier: n})
	defer r.Close() // closes n

	st, err := chart.LoadStencil(filepath.Join(dir, "goomba.stencil.json"))
	if err != nil {
		log.Fatal(err)
	}
	d, err := r.Load(filepath.Join(dir, "goomba.scxml"), reload.Config{Read: chart.ReadOptions{Stencil: st}})
	if err != nil {
		log.Fatal(err)
	}

	// The game's loop, for ten seconds at most.
	for tick := uint64(0); tick < 10_000; tick++ {
		if tick == 200 {
			edit(d.Path(), "walkRight", "strollRight") // the designer's edit
		}
		for _, rep := range r.Frame(tick) {
			for _, rn := range rep.Renamed {
				fmt.Printf("%s: renamed %s to %s\n", filepath.Base(rep.File), rn.From, rn.To)
			}
			return
		}
		time.Sleep(time.Millisecond) // the rest of the frame
	}
	// Output:
	// goomba.scxml: renamed walkRight to strollRight
}
