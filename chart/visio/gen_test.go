package visio_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
)

// This file builds Visio XML drawings for the tests, the benchmark and the
// fuzz corpus: shapes with the cells Visio writes (XForm, XForm1D with glue
// formulas, Shape Data rows whose inherited cells say F='Inh', a text
// field), so that the parser reads what it reads in real files.

// drawing is a .vdx to write.
type drawing struct {
	namespace string // default visio.NamespaceVDX2003
	masters   []dmaster
	pages     []dpage
}

type dmaster struct {
	id, name string
	shape    dshape
}

type dpage struct {
	id, name   string
	background bool
	shapes     []dshape
	connects   []dconnect
}

type dconnect struct{ from, cell, to string }

type dshape struct {
	id, name, master, masterShape, typ string
	oneD                               bool
	text                               string // none if empty
	props                              []dprop
	shapes                             []dshape
}

type dprop struct {
	row, label, value, format string
	typ                       int
	inherit                   bool // an instance's row: only the value is its own
	del                       bool
}

func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (d *drawing) bytes() []byte {
	var b bytes.Buffer
	d.write(&b)
	return b.Bytes()
}

func (d *drawing) write(b *bytes.Buffer) {
	ns := d.namespace
	if ns == "" {
		ns = visio.NamespaceVDX2003
	}
	fmt.Fprintf(b, "<?xml version='1.0' encoding='utf-8' ?>\n<VisioDocument xmlns='%s' start='190' metric='0' DocLangID='1033' version='11.0'>\n", ns)
	b.WriteString("<DocumentProperties><Title>Test</Title><Creator>fsmforge tests</Creator></DocumentProperties>\n")
	b.WriteString("<DocumentSettings TopPage='0' DefaultTextStyle='0' DefaultLineStyle='0' DefaultFillStyle='0' DefaultGuideStyle='0'><GlueSettings>9</GlueSettings></DocumentSettings>\n")
	b.WriteString("<Colors><ColorEntry IX='0' RGB='#000000'/><ColorEntry IX='1' RGB='#FFFFFF'/></Colors>\n")
	b.WriteString("<FaceNames><FaceName ID='1' Name='Arial' UnicodeRanges='0 0 0 0' CharSets='0 0' Panos='2 11 6 4 2 2 2 2 2 4' Flags='325'/></FaceNames>\n")
	b.WriteString("<StyleSheets><StyleSheet ID='0' NameU='No Style' Name='No Style'><Line><LineWeight>0.01</LineWeight></Line></StyleSheet></StyleSheets>\n")
	if len(d.masters) > 0 {
		b.WriteString("<Masters>\n")
		for _, m := range d.masters {
			fmt.Fprintf(b, "<Master ID='%s' NameU='%s' Name='%s' IconSize='1' AlignName='2' MatchByName='0' IconUpdate='1' PatternFlags='0' Hidden='0'>", m.id, esc(m.name), esc(m.name))
			b.WriteString("<PageSheet LineStyle='0' FillStyle='0' TextStyle='0'><PageProps><PageWidth>2</PageWidth><PageHeight>1</PageHeight></PageProps></PageSheet><Shapes>\n")
			m.shape.write(b)
			b.WriteString("</Shapes><Icon IX='0'>AAAAAAAAAAAAAAAA</Icon></Master>\n")
		}
		b.WriteString("</Masters>\n")
	}
	b.WriteString("<Pages>\n")
	for _, pg := range d.pages {
		bg := ""
		if pg.background {
			bg = " Background='1'"
		}
		fmt.Fprintf(b, "<Page ID='%s' NameU='%s' Name='%s'%s><PageSheet><PageProps><PageWidth Unit='IN_F'>8.5</PageWidth><PageHeight Unit='IN_F'>11</PageHeight></PageProps></PageSheet>\n<Shapes>\n", pg.id, esc(pg.name), esc(pg.name), bg)
		for _, s := range pg.shapes {
			s.write(b)
		}
		b.WriteString("</Shapes>\n")
		if len(pg.connects) > 0 {
			b.WriteString("<Connects>\n")
			for _, c := range pg.connects {
				part := "9"
				if c.cell == "EndX" {
					part = "12"
				}
				fmt.Fprintf(b, "<Connect FromSheet='%s' FromCell='%s' FromPart='%s' ToSheet='%s' ToCell='Connections.X1' ToPart='100'/>\n", c.from, c.cell, part, c.to)
			}
			b.WriteString("</Connects>\n")
		}
		b.WriteString("</Page>\n")
	}
	b.WriteString("</Pages>\n</VisioDocument>\n")
}

func (s *dshape) write(b *bytes.Buffer) {
	typ := s.typ
	if typ == "" {
		typ = "Shape"
		if len(s.shapes) > 0 {
			typ = "Group"
		}
	}
	fmt.Fprintf(b, "<Shape ID='%s' Type='%s'", s.id, typ)
	if s.name != "" {
		fmt.Fprintf(b, " NameU='%s' Name='%s'", esc(s.name), esc(s.name))
	}
	if s.master != "" {
		fmt.Fprintf(b, " Master='%s'", s.master)
	}
	if s.masterShape != "" {
		fmt.Fprintf(b, " MasterShape='%s'", s.masterShape)
	}
	b.WriteString(">")
	if s.oneD {
		b.WriteString("<XForm><PinX F='Inh'>2</PinX><PinY F='Inh'>3</PinY><Width F='Inh'>1.5</Width><Height>0</Height><LocPinX F='Inh'>0.75</LocPinX><LocPinY F='Inh'>0</LocPinY><Angle F='Inh'>0</Angle></XForm>")
		b.WriteString("<XForm1D><BeginX F='PAR(PNT(Sheet.1!Connections.X1,Sheet.1!Connections.Y1))'>1.25</BeginX><BeginY F='PAR(PNT(Sheet.1!Connections.X1,Sheet.1!Connections.Y1))'>3</BeginY><EndX F='PAR(PNT(Sheet.2!Connections.X1,Sheet.2!Connections.Y1))'>2.75</EndX><EndY F='PAR(PNT(Sheet.2!Connections.X1,Sheet.2!Connections.Y1))'>3</EndY></XForm1D>")
	} else {
		b.WriteString("<XForm><PinX>4.25</PinX><PinY>5.5</PinY><Width>1.5</Width><Height>0.75</Height><LocPinX F='Width*0.5'>0.75</LocPinX><LocPinY F='Height*0.5'>0.375</LocPinY><Angle>0</Angle><FlipX>0</FlipX><FlipY>0</FlipY><ResizeMode>0</ResizeMode></XForm>")
	}
	for _, p := range s.props {
		p.write(b)
	}
	if s.text != "" {
		fmt.Fprintf(b, "<Field IX='0'><Value Unit='STR' F='Inh'>%s</Value></Field><Text><cp IX='0'/><fld IX='0'>%s</fld></Text>", esc(s.text), esc(s.text))
	}
	if len(s.shapes) > 0 {
		b.WriteString("<Shapes>")
		for _, c := range s.shapes {
			c.write(b)
		}
		b.WriteString("</Shapes>")
	}
	b.WriteString("</Shape>\n")
}

func (p *dprop) write(b *bytes.Buffer) {
	fmt.Fprintf(b, "<Prop NameU='%s' ID='%d'", esc(p.row), len(p.row))
	if p.del {
		b.WriteString(" Del='1'/>")
		return
	}
	b.WriteString(">")
	fmt.Fprintf(b, "<Value Unit='STR'>%s</Value>", esc(p.value))
	inh := ""
	if p.inherit {
		inh = " F='Inh'"
	}
	fmt.Fprintf(b, "<Prompt%s/><Label%s>%s</Label><Format%s>%s</Format><Type%s>%d</Type><Invisible%s>0</Invisible></Prop>",
		inh, inh, esc(p.label), inh, esc(p.format), inh, p.typ, inh)
}

// The goomba stencil's drop-lists, as the masters of goomba.vdx hold them.
const (
	xMovements = "existing;right;left;death"
	animations = "existing;moveRight;moveLeft;death"
	testList   = "hitTriggerLeft;animationDone;hitTriggerRight;hitByPlayer"
)

// goombaMasters returns masters matching the goomba stencil, with IDs 2
// (Initial State), 3 (State), 4 (Transition) and 5 (Message Handler).
func goombaMasters() []dmaster {
	stateProps := []dprop{
		{row: "Name", label: "Name", value: "state"},
		{row: "XMovement", label: "XMovement", value: "existing", format: xMovements, typ: 1},
		{row: "Animation", label: "Animation", value: "existing", format: animations, typ: 1},
	}
	return []dmaster{
		{"2", "Initial State", dshape{id: "5", props: slices.Clone(stateProps), text: "state"}},
		{"3", "State", dshape{id: "5", props: slices.Clone(stateProps), text: "state"}},
		{"4", "Transition", dshape{id: "5", oneD: true, text: "test", props: []dprop{
			{row: "Test", label: "Test", value: "hitTriggerLeft", format: testList, typ: 1},
			{row: "Value", label: "Value"},
			{row: "Order", label: "Order", value: "0", typ: 2},
			{row: "Stack", label: "Stack", value: "none", format: "none;push;return", typ: 1},
		}}},
		{"5", "Message Handler", dshape{id: "5", text: "on message"}},
	}
}

// state is a state of the goomba stencil (master "3", or "2" for an initial
// state).
func state(id, master, name, xmove, anim string) dshape {
	return dshape{id: id, name: "State." + id, master: master, text: name, props: []dprop{
		{row: "Name", label: "Name", value: name, inherit: true},
		{row: "XMovement", label: "XMovement", value: xmove, format: xMovements, typ: 1, inherit: true},
		{row: "Animation", label: "Animation", value: anim, format: animations, typ: 1, inherit: true},
	}}
}

// transition is a transition of the goomba stencil testing test, with more
// rows of its own.
func transition(id, test string, more ...dprop) dshape {
	return dshape{id: id, name: "Transition." + id, master: "4", oneD: true, text: test,
		props: append([]dprop{{row: "Test", label: "Test", value: test, format: testList, typ: 1, inherit: true}}, more...)}
}

// glue glues the connector from at its start to begin and at its end to
// end; an empty ID leaves that end free.
func glue(from, begin, end string) []dconnect {
	var c []dconnect
	if begin != "" {
		c = append(c, dconnect{from, "BeginX", begin})
	}
	if end != "" {
		c = append(c, dconnect{from, "EndX", end})
	}
	return c
}

// goombaDrawing draws the seed's Goomba with the goomba stencil's masters,
// as goomba.vdx does, on one page, with the extra shapes and glue given.
func goombaDrawing(extra []dshape, extraGlue ...[]dconnect) *drawing {
	pg := dpage{id: "0", name: "Page-1", shapes: []dshape{
		state("1", "2", "walkLeft", "left", "moveLeft"),
		state("2", "3", "walkRight", "right", "moveRight"),
		state("3", "3", "death", "death", "death"),
		transition("4", "hitTriggerLeft"),
		transition("5", "hitTriggerRight"),
		transition("6", "hitByPlayer"),
		transition("7", "hitByPlayer"),
		transition("8", "animationDone"),
	}}
	pg.shapes = append(pg.shapes, extra...)
	for _, g := range append([][]dconnect{glue("4", "1", "2"), glue("5", "2", "1"), glue("6", "1", "3"), glue("7", "2", "3"), glue("8", "3", "")}, extraGlue...) {
		pg.connects = append(pg.connects, g...)
	}
	return &drawing{masters: goombaMasters(), pages: []dpage{pg}}
}

// generated draws states states and transitions transitions with the goomba
// stencil: the drawing of the benchmark.
func generated(states, transitions int) []byte {
	pg := dpage{id: "0", name: "Page-1", shapes: make([]dshape, 0, states+transitions)}
	moves := strings.Split(xMovements, ";")
	anims := strings.Split(animations, ";")
	tests := strings.Split(testList, ";")
	for i := 1; i <= states; i++ {
		master := "3"
		if i == 1 {
			master = "2"
		}
		pg.shapes = append(pg.shapes, state(strconv.Itoa(i), master, "s"+strconv.Itoa(i), moves[i%4], anims[i%4]))
	}
	pg.connects = make([]dconnect, 0, 2*transitions)
	for j := 0; j < transitions; j++ {
		id := strconv.Itoa(states + 1 + j)
		pg.shapes = append(pg.shapes, transition(id, tests[j%4]))
		pg.connects = append(pg.connects, glue(id, strconv.Itoa(j%states+1), strconv.Itoa((j*7+1)%states+1))...)
	}
	d := drawing{masters: goombaMasters(), pages: []dpage{pg}}
	var b bytes.Buffer
	b.Grow(states*900 + transitions*1000)
	d.write(&b)
	return b.Bytes()
}

// goombaStencil loads the stencil of examples/goomba.
func goombaStencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	return st
}
