package drawio_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// readLibrary parses a library as draw.io does: the text of the
// <mxlibrary> element is a JSON array of entries.
func readLibrary(t *testing.T, data []byte) []drawio.LibraryEntry {
	t.Helper()
	var lib struct {
		XMLName xml.Name `xml:"mxlibrary"`
		Text    string   `xml:",chardata"`
	}
	if err := xml.Unmarshal(data, &lib); err != nil {
		t.Fatalf("the library is not XML with an <mxlibrary> root: %v", err)
	}
	var entries []drawio.LibraryEntry
	if err := json.Unmarshal([]byte(lib.Text), &entries); err != nil {
		t.Fatalf("the library's text is not a JSON array of entries: %v", err)
	}
	return entries
}

// shapeOf returns the UserObject of a library entry's mxGraphModel.
func shapeOf(t *testing.T, e drawio.LibraryEntry) string {
	t.Helper()
	if err := xml.Unmarshal([]byte(e.XML), new(struct {
		XMLName xml.Name `xml:"mxGraphModel"`
	})); err != nil {
		t.Fatalf("entry %q: xml is not an mxGraphModel: %v", e.Title, err)
	}
	i, j := strings.Index(e.XML, "<UserObject"), strings.LastIndex(e.XML, "</UserObject>")
	if i < 0 || j < i || strings.Count(e.XML, "<UserObject") != 1 {
		t.Fatalf("entry %q: want one UserObject in %s", e.Title, e.XML)
	}
	return e.XML[i : j+len("</UserObject>")]
}

// designer edits a shape copied from the library as a designer does in
// draw.io: a new ID, attributes set in Edit Data, the label typed, the
// ends of an edge connected.
func designer(shape, id string, set map[string]string, ends string) string {
	shape = strings.Replace(shape, ` id="2"`, ` id="`+id+`"`, 1)
	for k, v := range set {
		re := regexp.MustCompile(` ` + regexp.QuoteMeta(k) + `="[^"]*"`)
		shape = re.ReplaceAllLiteralString(shape, ` `+k+`="`+v+`"`)
	}
	if ends != "" {
		shape = strings.Replace(shape, ` edge="1" parent="1"`, ` edge="1" parent="1" `+ends, 1)
	}
	return shape
}

func TestLibrary(t *testing.T) {
	for _, tt := range []struct {
		stencil *chart.Stencil
		titles  []string
		golden  string // the library, when not ""
	}{
		{charttest.Stencil(t), []string{"State (stencil goomba)", "Initial State (stencil goomba)", "Transition (stencil goomba)", "Message Handler (stencil goomba)"}, ""},
		{robotStencil(t), []string{"Room (stencil robot)", "Door (stencil robot)"}, ""},
		{sentryStencil(t), []string{"State (stencil sentry)", "Initial State (stencil sentry)", "Transition (stencil sentry)", "Message Handler (stencil sentry)",
			"Composite State (stencil sentry): a compound state", "Parallel State (stencil sentry): a parallel state",
			"Start (stencil sentry): a start", "History (stencil sentry): a shallow history (H)", "Deep History (stencil sentry): a deep history (H*)"}, "testdata/fsmforge_sentry.library.xml"},
	} {
		t.Run(tt.stencil.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := drawio.WriteLibrary(&b, tt.stencil); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), "<mxlibrary>[") || !strings.HasSuffix(b.String(), "]</mxlibrary>\n") {
				t.Errorf("library = %.40q...%q, want <mxlibrary>[...]</mxlibrary>", b.String(), b.String()[max(0, b.Len()-20):])
			}
			entries := readLibrary(t, b.Bytes())
			if len(entries) != len(tt.titles) {
				t.Fatalf("%d entries, want %d", len(entries), len(tt.titles))
			}
			for i, e := range entries {
				if !strings.HasPrefix(e.Title, tt.titles[i]) || e.W <= 0 || e.H <= 0 {
					t.Errorf("entry %d: %q %dx%d, want title %q", i, e.Title, e.W, e.H, tt.titles[i])
				}
				for _, shape := range shapesOf(t, e) {
					if !strings.Contains(shape, ` fsmforge="`) || !strings.Contains(shape, ` fsmforgeStencil="`+tt.stencil.Name+`"`) || !strings.Contains(shape, ` tooltip="`) {
						t.Errorf("entry %d: shape %s lacks the role, stencil or tooltip", i, shape)
					}
				}
			}
			if tt.golden != "" {
				charttest.GoldenBytes(t, b.Bytes(), tt.golden, *update)
			}
			var again bytes.Buffer
			drawio.WriteLibrary(&again, tt.stencil)
			if !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Errorf("WriteLibrary is not deterministic")
			}
			if e, err := drawio.Library(nil); err == nil || e != nil {
				t.Errorf("Library(nil) = %v, %v, want an error", e, err)
			}
		})
	}
}

// TestLibraryDrawing assembles the Goomba from the shapes of the goomba
// stencil's library, as a designer would, and reads it with the stencil:
// the chart of goomba.vdx, and not a diagnostic.
func TestLibraryDrawing(t *testing.T) {
	st := charttest.Stencil(t)
	var lib bytes.Buffer
	if err := drawio.WriteLibrary(&lib, st); err != nil {
		t.Fatal(err)
	}
	entries := readLibrary(t, lib.Bytes())
	state, initial, transition, handler := shapeOf(t, entries[0]), shapeOf(t, entries[1]), shapeOf(t, entries[2]), shapeOf(t, entries[3])
	cells := []string{
		designer(initial, "wl", map[string]string{"label": "walkLeft", "XMovement": "left", "Animation": "moveLeft"}, ""),
		designer(state, "wr", map[string]string{"label": "walkRight", "XMovement": "right", "Animation": "moveRight"}, ""),
		designer(state, "d", map[string]string{"label": "Death", "Name": "death", "XMovement": "death", "Animation": "death"}, ""),
		designer(handler, "h", nil, ""),
		designer(transition, "t1", nil, `source="wl" target="wr"`), // the default test, hitTriggerLeft
		designer(transition, "t2", map[string]string{"Test": "hitTriggerRight"}, `source="wr" target="wl"`),
		designer(transition, "t3", map[string]string{"Test": "hitByPlayer", "Stack": "push"}, `source="h" target="d"`),
		designer(transition, "t4", map[string]string{"Test": "animationDone", "Order": "1", "Final": "1"}, `source="d"`),
	}
	doc := `<mxfile><diagram id="p" name="Goomba"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` +
		strings.Join(cells, "\n") + `</root></mxGraphModel></diagram></mxfile>`
	c, err := drawio.Read(strings.NewReader(doc), drawio.Options{Stencil: st, File: "designed.drawio"})
	if err != nil {
		t.Fatalf("Read = %v\n%s", err, doc)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
	}
	got := render(c)
	want := []string{
		`state "wl" name="walkLeft" kind=normal initial=true parent="" entry=[XMovement=left Animation=moveLeft]`,
		`state "wr" name="walkRight" kind=normal initial=false parent="" entry=[XMovement=right Animation=moveRight]`,
		`state "d" name="death" kind=normal initial=false parent="" entry=[XMovement=death Animation=death]`,
		`transition "t1" from="wl" any=false order=1 test="hitTriggerLeft" value="" label="hitTriggerLeft" event="" guard="" action="" target=wr push=false`,
		`transition "t2" from="wr" any=false order=1 test="hitTriggerRight" value="" label="hitTriggerRight" event="" guard="" action="" target=wl push=false`,
		`transition "t3" from="" any=true order=1 test="hitByPlayer" value="" label="hitByPlayer" event="" guard="" action="" target=d push=true`,
		`transition "t4" from="d" any=false order=1 test="animationDone" value="" label="animationDone" event="" guard="" action="" target=(final) push=false`,
	}
	if d := diff(got, want); d != "" {
		t.Errorf("the designed Goomba differs at %s", d)
	}
}

// shapesOf returns the UserObjects of a library entry's mxGraphModel, in
// order: a container first, then what it holds.
func shapesOf(t *testing.T, e drawio.LibraryEntry) []string {
	t.Helper()
	re := regexp.MustCompile(`<UserObject .*?</UserObject>`)
	shapes := re.FindAllString(e.XML, -1)
	if len(shapes) == 0 {
		t.Fatalf("entry %q: no UserObject in %s", e.Title, e.XML)
	}
	return shapes
}

// drop places a vertex copied from the library as a designer does in
// draw.io: a new ID, in parent (a container, or "1", the layer) at the
// given box relative to it, attributes set in Edit Data.
func drop(shape, id, parent string, x, y, w, h int, set map[string]string) string {
	shape = regexp.MustCompile(` id="[^"]*">`).ReplaceAllLiteralString(shape, ` id="`+id+`">`)
	shape = regexp.MustCompile(` parent="[^"]*"`).ReplaceAllLiteralString(shape, ` parent="`+parent+`"`)
	geo := `<mxGeometry x="` + strconv.Itoa(x) + `" y="` + strconv.Itoa(y) + `" width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `" as="geometry"/>`
	shape = regexp.MustCompile(`<mxGeometry [^>]*/>`).ReplaceAllLiteralString(shape, geo)
	return designer(shape, id, set, "")
}

// TestLibraryStatechart draws statecharts with the shapes of the sentry
// stencil's library, as a designer would, into testdata (-update rewrites
// them):
//
//   - fsmforge_sentry_library.drawio: Patrol, a composite state the
//     machine starts in, as its state Walk is drawn with the initial-state
//     master; and Alert, a composite state that says where it starts with a
//     start, its transition to Search; it holds a history and Combat, a
//     parallel state of two regions (the library's), Weapon {Aim, drawn
//     with the initial-state master, Fire} and Movement {a start, to
//     Stand; Chase}.
//   - fsmforge_sentry_awake.drawio: the sentry of chart/visio, which starts
//     in Awake, a parallel state, as the state Walk of its region Patrol is
//     drawn with the initial-state master; its region Ears says where it
//     starts with a start; each region has a history; and Asleep.
//
// Read with the stencil, each gives its chart, states marked initial as
// the initial-state master means (the compounds around its states, up to
// a level that marks its own), without a diagnostic, and compiles without
// one. Written with the stencil and read back, it gives the same chart,
// which compiles to the same table.
func TestLibraryStatechart(t *testing.T) {
	st := sentryStencil(t)
	entries, err := drawio.Library(st)
	if err != nil {
		t.Fatal(err)
	}
	byMaster := map[string][]string{}
	for _, e := range entries {
		shapes := shapesOf(t, e)
		m := regexp.MustCompile(` fsmforge="([^"]*)"`).FindStringSubmatch(shapes[0])
		byMaster[m[1]] = shapes
	}
	state, initial, transition := byMaster["State"][0], byMaster["Initial State"][0], byMaster["Transition"][0]
	composite, parallel, history, deep, start := byMaster["Composite State"][0], byMaster["Parallel State"], byMaster["History"][0], byMaster["Deep History"][0], byMaster["Start"][0]
	if len(parallel) != 3 || !strings.Contains(parallel[1], `fsmforge="Composite State"`) || !strings.Contains(parallel[1], `parent="2"`) {
		t.Fatalf("the parallel state's entry = %v, want it and two regions drawn with the composite master inside it", parallel)
	}
	if !strings.Contains(start, `label=""`) || !strings.Contains(start, "shape=startState;fillColor=#000000;") || !strings.Contains(start, `width="30" height="30"`) {
		t.Fatalf("the start's entry = %s, want a small filled circle without a label", start)
	}
	edge := func(id, test, source, target string, set map[string]string) string {
		if set == nil {
			set = map[string]string{}
		}
		set["Test"] = test
		ends := `source="` + source + `"`
		if target != "" {
			ends += ` target="` + target + `"`
		}
		return designer(transition, id, set, ends)
	}
	for _, tt := range []struct {
		file  string
		cells []string
		want  []string
	}{
		{"testdata/fsmforge_sentry_library.drawio",
			[]string{
				drop(composite, "patrol", "1", 40, 40, 320, 130, map[string]string{"label": "Patrol", "Animation": "walk", "Speed": "slow"}),
				drop(initial, "walk", "patrol", 20, 50, 120, 60, map[string]string{"label": "Walk", "Animation": "walk", "Speed": "slow"}),
				drop(state, "look", "patrol", 180, 50, 120, 60, map[string]string{"label": "Look", "Animation": "idle", "Speed": "stop"}),
				drop(composite, "alert", "1", 400, 40, 560, 440, map[string]string{"label": "Alert", "Animation": "run", "Speed": "fast"}),
				drop(start, "start", "alert", 20, 65, 30, 30, nil),
				drop(state, "search", "alert", 80, 50, 120, 60, map[string]string{"label": "Search", "Animation": "walk", "Speed": "slow"}),
				drop(history, "h", "alert", 240, 65, 30, 30, nil),
				drop(parallel[0], "combat", "alert", 20, 130, 520, 290, map[string]string{"label": "Combat", "Animation": "aim", "Speed": "stop"}),
				drop(parallel[1], "weapon", "combat", 20, 40, 480, 110, map[string]string{"label": "Weapon"}),
				drop(initial, "aim", "weapon", 20, 30, 120, 60, map[string]string{"label": "Aim", "Animation": "aim", "Speed": "stop"}),
				drop(state, "fire", "weapon", 200, 30, 120, 60, map[string]string{"label": "Fire", "Animation": "shoot", "Speed": "stop"}),
				drop(parallel[2], "movement", "combat", 20, 160, 480, 110, map[string]string{"label": "Movement"}),
				drop(start, "mstart", "movement", 20, 45, 30, 30, nil),
				drop(state, "stand", "movement", 80, 30, 120, 60, map[string]string{"label": "Stand", "Animation": "idle", "Speed": "stop"}),
				drop(state, "chase", "movement", 260, 30, 120, 60, map[string]string{"label": "Chase", "Animation": "run", "Speed": "fast"}),
				edge("t1", "noise", "patrol", "alert", nil),
				edge("t2", "seePlayer", "patrol", "h", nil),
				edge("t3", "", "h", "search", nil), // the history's default: no test
				edge("t4", "seePlayer", "search", "combat", nil),
				edge("t5", "inRange", "aim", "fire", nil),
				edge("t6", "outOfRange", "fire", "aim", nil),
				edge("t7", "closeBy", "stand", "chase", nil),
				edge("t8", "lostPlayer", "chase", "stand", nil),
				edge("t9", "calm", "alert", "patrol", nil),
				edge("t10", "hit", "alert", "", map[string]string{"Final": "1"}),
				edge("t11", "", "start", "search", nil), // where Alert starts: no test
				edge("t12", "", "mstart", "stand", nil),
				edge("t13", "closeBy", "walk", "look", nil),
				edge("t14", "outOfRange", "look", "walk", nil),
			},
			[]string{
				// The machine starts in Walk, so in Patrol.
				`state "patrol" name="Patrol" kind=normal initial=true parent="" entry=[Animation=walk Speed=slow]`,
				`state "walk" name="Walk" kind=normal initial=true parent="patrol" entry=[Animation=walk Speed=slow]`,
				`state "look" name="Look" kind=normal initial=false parent="patrol" entry=[Animation=idle Speed=stop]`,
				`state "alert" name="Alert" kind=normal initial=false parent="" entry=[Animation=run Speed=fast]`,
				`state "start" name="" kind=start initial=true parent="alert" entry=[]`,
				`state "search" name="Search" kind=normal initial=false parent="alert" entry=[Animation=walk Speed=slow]`,
				`state "h" name="" kind=history initial=false parent="alert" entry=[]`,
				// Alert's start marks its level: Aim's mark stops at Combat.
				`state "combat" name="Combat" kind=parallel initial=false parent="alert" entry=[Animation=aim Speed=stop]`,
				`state "weapon" name="Weapon" kind=normal initial=false parent="combat" entry=[Animation=idle Speed=stop]`,
				`state "aim" name="Aim" kind=normal initial=true parent="weapon" entry=[Animation=aim Speed=stop]`,
				`state "fire" name="Fire" kind=normal initial=false parent="weapon" entry=[Animation=shoot Speed=stop]`,
				`state "movement" name="Movement" kind=normal initial=false parent="combat" entry=[Animation=idle Speed=stop]`,
				`state "mstart" name="" kind=start initial=true parent="movement" entry=[]`,
				`state "stand" name="Stand" kind=normal initial=false parent="movement" entry=[Animation=idle Speed=stop]`,
				`state "chase" name="Chase" kind=normal initial=false parent="movement" entry=[Animation=run Speed=fast]`,
				`transition "t1" from="patrol" any=false order=1 test="noise" value="" label="noise" event="" guard="" action="" target=alert push=false`,
				`transition "t2" from="patrol" any=false order=2 test="seePlayer" value="" label="seePlayer" event="" guard="" action="" target=h push=false`,
				`transition "t3" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=search push=false`,
				`transition "t4" from="search" any=false order=1 test="seePlayer" value="" label="seePlayer" event="" guard="" action="" target=combat push=false`,
				`transition "t5" from="aim" any=false order=1 test="inRange" value="" label="inRange" event="" guard="" action="" target=fire push=false`,
				`transition "t6" from="fire" any=false order=1 test="outOfRange" value="" label="outOfRange" event="" guard="" action="" target=aim push=false`,
				`transition "t7" from="stand" any=false order=1 test="closeBy" value="" label="closeBy" event="" guard="" action="" target=chase push=false`,
				`transition "t8" from="chase" any=false order=1 test="lostPlayer" value="" label="lostPlayer" event="" guard="" action="" target=stand push=false`,
				`transition "t9" from="alert" any=false order=1 test="calm" value="" label="calm" event="" guard="" action="" target=patrol push=false`,
				`transition "t10" from="alert" any=false order=2 test="hit" value="" label="hit" event="" guard="" action="" target=(final) push=false`,
				`transition "t11" from="start" any=false order=1 test="" value="" label="" event="" guard="" action="" target=search push=false`,
				`transition "t12" from="mstart" any=false order=1 test="" value="" label="" event="" guard="" action="" target=stand push=false`,
				`transition "t13" from="walk" any=false order=1 test="closeBy" value="" label="closeBy" event="" guard="" action="" target=look push=false`,
				`transition "t14" from="look" any=false order=1 test="outOfRange" value="" label="outOfRange" event="" guard="" action="" target=walk push=false`,
			}},
		{"testdata/fsmforge_sentry_awake.drawio",
			[]string{
				drop(parallel[0], "awake", "1", 40, 40, 520, 330, map[string]string{"label": "Awake", "Animation": "idle", "Speed": "stop"}),
				drop(parallel[1], "patrol", "awake", 20, 40, 480, 130, map[string]string{"label": "Patrol", "Animation": "walk", "Speed": "slow"}),
				drop(initial, "walk", "patrol", 20, 40, 120, 60, map[string]string{"label": "Walk", "Animation": "walk", "Speed": "slow"}),
				drop(state, "look", "patrol", 200, 40, 120, 60, map[string]string{"label": "Look", "Animation": "idle", "Speed": "stop"}),
				drop(history, "h", "patrol", 380, 55, 30, 30, nil),
				drop(parallel[2], "ears", "awake", 20, 180, 480, 130, map[string]string{"label": "Ears"}),
				drop(start, "start", "ears", 20, 55, 30, 30, nil),
				drop(state, "listen", "ears", 80, 40, 120, 60, map[string]string{"label": "Listen", "Animation": "idle", "Speed": "stop"}),
				drop(state, "alert", "ears", 260, 40, 120, 60, map[string]string{"label": "Alert", "Animation": "aim", "Speed": "stop"}),
				drop(deep, "hh", "ears", 420, 55, 30, 30, nil),
				drop(state, "asleep", "1", 620, 40, 120, 60, map[string]string{"label": "Asleep", "Animation": "idle", "Speed": "stop"}),
				edge("t1", "seePlayer", "walk", "look", nil),
				edge("t2", "lostPlayer", "look", "walk", nil),
				edge("t3", "", "h", "walk", nil),
				edge("t4", "", "start", "listen", nil),
				edge("t5", "noise", "listen", "alert", nil),
				edge("t6", "calm", "alert", "listen", nil),
				edge("t7", "", "hh", "listen", nil),
				edge("t8", "hit", "awake", "asleep", nil),
				edge("t9", "calm", "asleep", "h", nil),
				edge("t10", "noise", "asleep", "hh", nil),
			},
			[]string{
				// The machine starts in Walk, so in Awake; its regions are
				// not marked.
				`state "awake" name="Awake" kind=parallel initial=true parent="" entry=[Animation=idle Speed=stop]`,
				`state "patrol" name="Patrol" kind=normal initial=false parent="awake" entry=[Animation=walk Speed=slow]`,
				`state "walk" name="Walk" kind=normal initial=true parent="patrol" entry=[Animation=walk Speed=slow]`,
				`state "look" name="Look" kind=normal initial=false parent="patrol" entry=[Animation=idle Speed=stop]`,
				`state "h" name="" kind=history initial=false parent="patrol" entry=[]`,
				`state "ears" name="Ears" kind=normal initial=false parent="awake" entry=[Animation=idle Speed=stop]`,
				`state "start" name="" kind=start initial=true parent="ears" entry=[]`,
				`state "listen" name="Listen" kind=normal initial=false parent="ears" entry=[Animation=idle Speed=stop]`,
				`state "alert" name="Alert" kind=normal initial=false parent="ears" entry=[Animation=aim Speed=stop]`,
				`state "hh" name="" kind=deepHistory initial=false parent="ears" entry=[]`,
				`state "asleep" name="Asleep" kind=normal initial=false parent="" entry=[Animation=idle Speed=stop]`,
				`transition "t1" from="walk" any=false order=1 test="seePlayer" value="" label="seePlayer" event="" guard="" action="" target=look push=false`,
				`transition "t2" from="look" any=false order=1 test="lostPlayer" value="" label="lostPlayer" event="" guard="" action="" target=walk push=false`,
				`transition "t3" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=walk push=false`,
				`transition "t4" from="start" any=false order=1 test="" value="" label="" event="" guard="" action="" target=listen push=false`,
				`transition "t5" from="listen" any=false order=1 test="noise" value="" label="noise" event="" guard="" action="" target=alert push=false`,
				`transition "t6" from="alert" any=false order=1 test="calm" value="" label="calm" event="" guard="" action="" target=listen push=false`,
				`transition "t7" from="hh" any=false order=1 test="" value="" label="" event="" guard="" action="" target=listen push=false`,
				`transition "t8" from="awake" any=false order=1 test="hit" value="" label="hit" event="" guard="" action="" target=asleep push=false`,
				`transition "t9" from="asleep" any=false order=1 test="calm" value="" label="calm" event="" guard="" action="" target=h push=false`,
				`transition "t10" from="asleep" any=false order=2 test="noise" value="" label="noise" event="" guard="" action="" target=hh push=false`,
			}},
	} {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			doc := "<mxfile host=\"fsmforge\" pages=\"1\">\n  <diagram id=\"sentry\" name=\"Sentry\">\n    <mxGraphModel>\n      <root>\n" +
				"        <mxCell id=\"0\"/>\n        <mxCell id=\"1\" parent=\"0\"/>\n        " + strings.Join(tt.cells, "\n        ") +
				"\n      </root>\n    </mxGraphModel>\n  </diagram>\n</mxfile>\n"
			charttest.GoldenBytes(t, []byte(doc), tt.file, *update)

			c, err := drawio.ReadFile(tt.file, drawio.Options{Stencil: st, File: "sentry.drawio"})
			if err != nil {
				t.Fatalf("ReadFile = %v", err)
			}
			charttest.CheckChart(t, c, err)
			if len(c.Diagnostics) != 0 {
				t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
			}
			if d := diff(render(c), tt.want); d != "" {
				t.Errorf("the sentry differs at %s", d)
			}
			res, err := compile.Compile(c, compile.Options{Stencil: st})
			if err != nil {
				t.Fatalf("Compile = %v", err)
			}
			if len(res.Diagnostics) != 0 {
				t.Errorf("Compile's diagnostics = %v, want none", res.Diagnostics)
			}

			// Written back with the stencil, the chart reads the same, and
			// compiles to the same table.
			var b bytes.Buffer
			if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
				t.Fatalf("Write = %v", err)
			}
			back, err := drawio.Read(&b, drawio.Options{Stencil: st, File: "sentry.drawio"})
			if err != nil || len(back.Diagnostics) != 0 {
				t.Fatalf("Read(Write(c)) = %v, %v", err, back.Diagnostics)
			}
			if d := diff(render(back), render(c)); d != "" {
				t.Errorf("Read(Write(sentry)) differs at %s", d)
			}
			want, _ := compiled(c)
			if got, ok := compiled(back); !ok || !bytes.Equal(got, want) {
				t.Errorf("Read(Write(sentry)) compiles to another table than the sentry")
			}
		})
	}
}
