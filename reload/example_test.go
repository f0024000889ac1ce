package reload_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/table"
)

// A game runs doors from a drawing; the designer renames a state and
// removes another while the game runs. The door that was opened follows
// the rename; the locked one goes to the initial state.
func Example() {
	dir, _ := os.MkdirTemp("", "reload")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "door.scxml")
	os.WriteFile(path, []byte(door), 0o644)

	// Manual: this example saves, then asks the Reloader to look; a game
	// leaves it to the Reloader's goroutine.
	r := reload.New(reload.Options{Manual: true})
	defer r.Close()
	d, err := r.Load(path, reload.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ids := []int{0, 1, 2}
	doors := make([]table.Agent[*int], len(ids))
	for i := range doors {
		doors[i] = table.NewAgent[*int](d.Table(), &ids[i], nobody{})
	}
	d.Run("doors", reload.Agents(each(doors)))
	post := func(i int, event string) {
		id, _ := d.Table().LookupTest(event, "")
		doors[i].Post(id)
		doors[i].Update(nobody{})
	}
	post(1, "open")
	post(2, "open")
	post(2, "lock")

	// The designer's save.
	v2 := strings.ReplaceAll(door, `"opened"`, `"ajar"`)
	v2 = strings.Replace(v2, `<transition event="lock" target="locked"/>`, "", 1)
	v2 = strings.Replace(v2, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", "", 1)
	os.WriteFile(path, []byte(v2), 0o644)
	r.Refresh()

	for _, rep := range r.Frame(1) { // the next frame boundary
		fmt.Println("renamed:", rep.Renamed)
		fmt.Println("removed:", rep.Removed)
		for _, t := range rep.Targets {
			for _, m := range t.Moved {
				fmt.Printf("%s #%d was in %s, now in %s (%s)\n", t.Target, m.Entity, m.From, rep.Fallback, rep.Why)
			}
		}
	}
	for i := range doors {
		fmt.Printf("door %d: %s\n", i, doors[i].Name())
	}
	// Output:
	// renamed: [{opened ajar}]
	// removed: [locked]
	// doors #2 was in locked, now in closed (the initial state)
	// door 0: closed
	// door 1: ajar
	// door 2: closed
}
