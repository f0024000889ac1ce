// Package vdxgen writes Visio XML drawings (.vdx) for tests, benchmarks and
// fuzz corpora: shapes with the cells Visio itself writes (XForm, XForm1D
// with glue formulas, Shape Data rows whose inherited cells say F='Inh', a
// text field), so that a reader reads in them what it reads in real files.
//
// A [Drawing] is plain data written by [Drawing.Bytes]; package
// internal/vsdxgen writes the same data as a .vsdx. Shapes are placed all
// at one spot unless their XForm says where; a Relationships formula makes
// containers ([Holds] and [In] write it). The helpers [GoombaMasters],
// [State], [Transition], [Glue] and [Goomba] draw with the masters of the
// Goomba stencil (examples/goomba/goomba.stencil.json); [UMLMasters] and
// [Composite] with masters named as those of Visio's UML State Machine
// stencil, whose composite state is a container named by its heading;
// [Generate] and [GenerateDrawing] draw the large charts of the
// benchmarks.
//
// The output of a given Drawing never changes from one run to the next:
// tests may compare line and column numbers in it.
package vdxgen

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// NamespaceVDX2003 is the namespace of Visio 2003–2010 XML drawings, the
// default of [Drawing.Namespace].
const NamespaceVDX2003 = "http://schemas.microsoft.com/visio/2003/core"

// Drawing is a .vdx file to write.
type Drawing struct {
	Namespace string // the root element's namespace; "" means NamespaceVDX2003
	Masters   []Master
	Pages     []Page
}

// Master is a master of the drawing, with the one shape it draws.
type Master struct {
	ID, Name string // Name is written as NameU and Name
	Shape    Shape
}

// Page is a page of the drawing: its shapes and the glue between them.
type Page struct {
	ID, Name   string
	Background bool
	Shapes     []Shape
	Connects   []Connect
	// Width and Height are the page's size in inches; 0 means 8.5 by 11.
	Width, Height float64
}

// Size returns the page's size in inches, with the defaults filled in.
func (pg *Page) Size() (width, height float64) {
	width, height = pg.Width, pg.Height
	if width == 0 {
		width = 8.5
	}
	if height == 0 {
		height = 11
	}
	return width, height
}

// Connect glues end Cell ("BeginX" or "EndX") of connector From to shape To.
type Connect struct{ From, Cell, To string }

// Shape is a shape of a page, a master or a group.
type Shape struct {
	ID          string
	Name        string // NameU and Name; none if empty
	Master      string // the ID of its master; none if empty
	MasterShape string // for a member of a master's group: its shape in the master
	Type        string // "Shape", or "Group" when it has members, if empty
	OneD        bool   // a connector: written with XForm1D
	Text        string // none if empty
	Props       []Prop // its Shape Data rows
	Shapes      []Shape
	// Relationships is the formula of the shape's Relationships cell,
	// which links containers and their members:
	// "SUM(DEPENDSON(1,Sheet.2!SheetRef()))" on a container holding shape
	// 2, "SUM(DEPENDSON(4,Sheet.1!SheetRef()))" on shape 2. None if empty.
	Relationships string
	// XForm places the shape; nil means the same place for every shape
	// (4.25, 5.5, 1.5 by 0.75 for a box; from (1.25, 3) to (2.75, 3) for a
	// connector).
	XForm *XForm
}

// XForm is where a shape is, in inches, Y upwards: a 2-D shape's pin (its
// centre) and size, or a connector's begin and end points.
type XForm struct {
	PinX, PinY, Width, Height  float64 // 2-D
	BeginX, BeginY, EndX, EndY float64 // 1-D
}

// Cells returns the cells that place the shape, in the order Visio writes
// them: PinX, PinY, Width, Height, LocPinX, LocPinY, Angle, and for a 1-D
// shape BeginX, BeginY, EndX, EndY; each a name and a value.
func (s *Shape) Cells() [][2]string {
	x := s.XForm
	if x == nil {
		x = &XForm{PinX: 4.25, PinY: 5.5, Width: 1.5, Height: 0.75, BeginX: 1.25, BeginY: 3, EndX: 2.75, EndY: 3}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	if !s.OneD {
		return [][2]string{{"PinX", f(x.PinX)}, {"PinY", f(x.PinY)}, {"Width", f(x.Width)}, {"Height", f(x.Height)},
			{"LocPinX", f(x.Width / 2)}, {"LocPinY", f(x.Height / 2)}, {"Angle", "0"}}
	}
	dx, dy := x.EndX-x.BeginX, x.EndY-x.BeginY
	w := math.Round(math.Hypot(dx, dy)*1e9) / 1e9
	angle := math.Round(math.Atan2(dy, dx)*1e9) / 1e9
	return [][2]string{{"PinX", f((x.BeginX + x.EndX) / 2)}, {"PinY", f((x.BeginY + x.EndY) / 2)}, {"Width", f(w)}, {"Height", "0"},
		{"LocPinX", f(w / 2)}, {"LocPinY", "0"}, {"Angle", f(angle)},
		{"BeginX", f(x.BeginX)}, {"BeginY", f(x.BeginY)}, {"EndX", f(x.EndX)}, {"EndY", f(x.EndY)}}
}

// Prop is a Shape Data row.
type Prop struct {
	Row, Label, Value, Format string
	Type                      int  // 0 a string, 1 a fixed list, 2 a number, as Visio numbers them
	Inherit                   bool // an instance's row: only the value is its own
	Del                       bool // a deleted row: Del='1' and nothing else
}

// Bytes returns the drawing as a .vdx file.
func (d *Drawing) Bytes() []byte {
	var b bytes.Buffer
	d.write(&b)
	return b.Bytes()
}

// WriteTo writes the drawing as a .vdx file to w.
func (d *Drawing) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	d.write(&b)
	return b.WriteTo(w)
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

func (d *Drawing) write(b *bytes.Buffer) {
	ns := d.Namespace
	if ns == "" {
		ns = NamespaceVDX2003
	}
	fmt.Fprintf(b, "<?xml version='1.0' encoding='utf-8' ?>\n<VisioDocument xmlns='%s' start='190' metric='0' DocLangID='1033' version='11.0'>\n", ns)
	b.WriteString("<DocumentProperties><Title>Test</Title><Creator>fsmforge tests</Creator></DocumentProperties>\n")
	b.WriteString("<DocumentSettings TopPage='0' DefaultTextStyle='0' DefaultLineStyle='0' DefaultFillStyle='0' DefaultGuideStyle='0'><GlueSettings>9</GlueSettings></DocumentSettings>\n")
	b.WriteString("<Colors><ColorEntry IX='0' RGB='#000000'/><ColorEntry IX='1' RGB='#FFFFFF'/></Colors>\n")
	b.WriteString("<FaceNames><FaceName ID='1' Name='Arial' UnicodeRanges='0 0 0 0' CharSets='0 0' Panos='2 11 6 4 2 2 2 2 2 4' Flags='325'/></FaceNames>\n")
	b.WriteString("<StyleSheets><StyleSheet ID='0' NameU='No Style' Name='No Style'><Line><LineWeight>0.01</LineWeight></Line></StyleSheet></StyleSheets>\n")
	if len(d.Masters) > 0 {
		b.WriteString("<Masters>\n")
		for _, m := range d.Masters {
			fmt.Fprintf(b, "<Master ID='%s' NameU='%s' Name='%s' IconSize='1' AlignName='2' MatchByName='0' IconUpdate='1' PatternFlags='0' Hidden='0'>", m.ID, esc(m.Name), esc(m.Name))
			b.WriteString("<PageSheet LineStyle='0' FillStyle='0' TextStyle='0'><PageProps><PageWidth>2</PageWidth><PageHeight>1</PageHeight></PageProps></PageSheet><Shapes>\n")
			m.Shape.write(b)
			b.WriteString("</Shapes><Icon IX='0'>AAAAAAAAAAAAAAAA</Icon></Master>\n")
		}
		b.WriteString("</Masters>\n")
	}
	b.WriteString("<Pages>\n")
	for _, pg := range d.Pages {
		bg := ""
		if pg.Background {
			bg = " Background='1'"
		}
		w, h := pg.Size()
		fmt.Fprintf(b, "<Page ID='%s' NameU='%s' Name='%s'%s><PageSheet><PageProps><PageWidth Unit='IN_F'>%g</PageWidth><PageHeight Unit='IN_F'>%g</PageHeight></PageProps></PageSheet>\n<Shapes>\n", pg.ID, esc(pg.Name), esc(pg.Name), bg, w, h)
		for _, s := range pg.Shapes {
			s.write(b)
		}
		b.WriteString("</Shapes>\n")
		if len(pg.Connects) > 0 {
			b.WriteString("<Connects>\n")
			for _, c := range pg.Connects {
				part := "9"
				if c.Cell == "EndX" {
					part = "12"
				}
				fmt.Fprintf(b, "<Connect FromSheet='%s' FromCell='%s' FromPart='%s' ToSheet='%s' ToCell='Connections.X1' ToPart='100'/>\n", c.From, c.Cell, part, c.To)
			}
			b.WriteString("</Connects>\n")
		}
		b.WriteString("</Page>\n")
	}
	b.WriteString("</Pages>\n</VisioDocument>\n")
}

func (s *Shape) write(b *bytes.Buffer) {
	typ := s.Type
	if typ == "" {
		typ = "Shape"
		if len(s.Shapes) > 0 {
			typ = "Group"
		}
	}
	fmt.Fprintf(b, "<Shape ID='%s' Type='%s'", s.ID, typ)
	if s.Name != "" {
		fmt.Fprintf(b, " NameU='%s' Name='%s'", esc(s.Name), esc(s.Name))
	}
	if s.Master != "" {
		fmt.Fprintf(b, " Master='%s'", s.Master)
	}
	if s.MasterShape != "" {
		fmt.Fprintf(b, " MasterShape='%s'", s.MasterShape)
	}
	b.WriteString(">")
	if s.XForm != nil {
		c := s.Cells()
		b.WriteString("<XForm>")
		for _, cell := range c[:7] {
			fmt.Fprintf(b, "<%s>%s</%s>", cell[0], cell[1], cell[0])
		}
		b.WriteString("</XForm>")
		if s.OneD {
			b.WriteString("<XForm1D>")
			for _, cell := range c[7:] {
				fmt.Fprintf(b, "<%s>%s</%s>", cell[0], cell[1], cell[0])
			}
			b.WriteString("</XForm1D>")
		}
	} else if s.OneD {
		b.WriteString("<XForm><PinX F='Inh'>2</PinX><PinY F='Inh'>3</PinY><Width F='Inh'>1.5</Width><Height>0</Height><LocPinX F='Inh'>0.75</LocPinX><LocPinY F='Inh'>0</LocPinY><Angle F='Inh'>0</Angle></XForm>")
		b.WriteString("<XForm1D><BeginX F='PAR(PNT(Sheet.1!Connections.X1,Sheet.1!Connections.Y1))'>1.25</BeginX><BeginY F='PAR(PNT(Sheet.1!Connections.X1,Sheet.1!Connections.Y1))'>3</BeginY><EndX F='PAR(PNT(Sheet.2!Connections.X1,Sheet.2!Connections.Y1))'>2.75</EndX><EndY F='PAR(PNT(Sheet.2!Connections.X1,Sheet.2!Connections.Y1))'>3</EndY></XForm1D>")
	} else {
		b.WriteString("<XForm><PinX>4.25</PinX><PinY>5.5</PinY><Width>1.5</Width><Height>0.75</Height><LocPinX F='Width*0.5'>0.75</LocPinX><LocPinY F='Height*0.5'>0.375</LocPinY><Angle>0</Angle><FlipX>0</FlipX><FlipY>0</FlipY><ResizeMode>0</ResizeMode></XForm>")
	}
	for _, p := range s.Props {
		p.write(b)
	}
	if s.Relationships != "" {
		fmt.Fprintf(b, "<v14:Layout xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'><v14:Relationships F='%s'>0</v14:Relationships></v14:Layout>", esc(s.Relationships))
	}
	if s.Text != "" {
		fmt.Fprintf(b, "<Field IX='0'><Value Unit='STR' F='Inh'>%s</Value></Field><Text><cp IX='0'/><fld IX='0'>%s</fld></Text>", esc(s.Text), esc(s.Text))
	}
	if len(s.Shapes) > 0 {
		b.WriteString("<Shapes>")
		for _, c := range s.Shapes {
			c.write(b)
		}
		b.WriteString("</Shapes>")
	}
	b.WriteString("</Shape>\n")
}

func (p *Prop) write(b *bytes.Buffer) {
	fmt.Fprintf(b, "<Prop NameU='%s' ID='%d'", esc(p.Row), len(p.Row))
	if p.Del {
		b.WriteString(" Del='1'/>")
		return
	}
	b.WriteString(">")
	fmt.Fprintf(b, "<Value Unit='STR'>%s</Value>", esc(p.Value))
	inh := ""
	if p.Inherit {
		inh = " F='Inh'"
	}
	fmt.Fprintf(b, "<Prompt%s/><Label%s>%s</Label><Format%s>%s</Format><Type%s>%d</Type><Invisible%s>0</Invisible></Prop>",
		inh, inh, esc(p.Label), inh, esc(p.Format), inh, p.Type, inh)
}

// The Goomba stencil's drop-lists, as the masters of goomba.vdx hold them.
const (
	XMovements = "existing;right;left;death"
	Animations = "existing;moveRight;moveLeft;death"
	Tests      = "hitTriggerLeft;animationDone;hitTriggerRight;hitByPlayer"
)

// The IDs of the masters of [GoombaMasters].
const (
	MasterInitial    = "2" // Initial State
	MasterState      = "3" // State
	MasterTransition = "4" // Transition
	MasterHandler    = "5" // Message Handler
)

// GoombaMasters returns masters matching the Goomba stencil, with IDs
// MasterInitial, MasterState, MasterTransition and MasterHandler.
func GoombaMasters() []Master {
	stateProps := []Prop{
		{Row: "Name", Label: "Name", Value: "state"},
		{Row: "XMovement", Label: "XMovement", Value: "existing", Format: XMovements, Type: 1},
		{Row: "Animation", Label: "Animation", Value: "existing", Format: Animations, Type: 1},
	}
	return []Master{
		{MasterInitial, "Initial State", Shape{ID: "5", Props: slices.Clone(stateProps), Text: "state"}},
		{MasterState, "State", Shape{ID: "5", Props: slices.Clone(stateProps), Text: "state"}},
		{MasterTransition, "Transition", Shape{ID: "5", OneD: true, Text: "test", Props: []Prop{
			{Row: "Test", Label: "Test", Value: "hitTriggerLeft", Format: Tests, Type: 1},
			{Row: "Value", Label: "Value"},
			{Row: "Order", Label: "Order", Value: "0", Type: 2},
			{Row: "Stack", Label: "Stack", Value: "none", Format: "none;push;return", Type: 1},
		}}},
		{MasterHandler, "Message Handler", Shape{ID: "5", Text: "on message"}},
	}
}

// State returns a state of the Goomba stencil drawn with the given master
// (MasterState, or MasterInitial for an initial state), named name, with
// its entry actions XMovement = xmove and Animation = anim.
func State(id, master, name, xmove, anim string) Shape {
	return Shape{ID: id, Name: "State." + id, Master: master, Text: name, Props: []Prop{
		{Row: "Name", Label: "Name", Value: name, Inherit: true},
		{Row: "XMovement", Label: "XMovement", Value: xmove, Format: XMovements, Type: 1, Inherit: true},
		{Row: "Animation", Label: "Animation", Value: anim, Format: Animations, Type: 1, Inherit: true},
	}}
}

// Transition returns a transition of the Goomba stencil testing test, with
// more rows of its own (Value, Order, Stack).
func Transition(id, test string, more ...Prop) Shape {
	return Shape{ID: id, Name: "Transition." + id, Master: MasterTransition, OneD: true, Text: test,
		Props: append([]Prop{{Row: "Test", Label: "Test", Value: test, Format: Tests, Type: 1, Inherit: true}}, more...)}
}

// Glue glues the connector from at its start to begin and at its end to
// end; an empty ID leaves that end free.
func Glue(from, begin, end string) []Connect {
	var c []Connect
	if begin != "" {
		c = append(c, Connect{from, "BeginX", begin})
	}
	if end != "" {
		c = append(c, Connect{from, "EndX", end})
	}
	return c
}

// Goomba draws the designer-pipeline article's Goomba with the Goomba
// stencil's masters, as examples/goomba/goomba.vdx does, on one page
// "Page-1": states walkLeft (1, initial), walkRight (2) and death (3);
// transitions 4 to 8 (hitTriggerLeft, hitTriggerRight, hitByPlayer twice,
// animationDone to the final state); then the extra shapes and glue given.
// Unlike goomba.vdx, its Transition master has no Final row, and
// transition 8 does not set one: an importer warns that its end is glued
// to no state.
func Goomba(extra []Shape, extraGlue ...[]Connect) *Drawing {
	pg := Page{ID: "0", Name: "Page-1", Shapes: []Shape{
		State("1", MasterInitial, "walkLeft", "left", "moveLeft"),
		State("2", MasterState, "walkRight", "right", "moveRight"),
		State("3", MasterState, "death", "death", "death"),
		Transition("4", "hitTriggerLeft"),
		Transition("5", "hitTriggerRight"),
		Transition("6", "hitByPlayer"),
		Transition("7", "hitByPlayer"),
		Transition("8", "animationDone"),
	}}
	pg.Shapes = append(pg.Shapes, extra...)
	for _, g := range append([][]Connect{Glue("4", "1", "2"), Glue("5", "2", "1"), Glue("6", "1", "3"), Glue("7", "2", "3"), Glue("8", "3", "")}, extraGlue...) {
		pg.Connects = append(pg.Connects, g...)
	}
	return &Drawing{Masters: GoombaMasters(), Pages: []Page{pg}}
}

// Generate draws a chart of the given numbers of states and transitions
// with the Goomba stencil, on one page, for benchmarks, and returns it as a
// .vdx file: [GenerateDrawing] written by [Drawing.Bytes].
//
// It costs about 1 KB of file per shape and panics if states < 1.
func Generate(states, transitions int) []byte {
	d := GenerateDrawing(states, transitions)
	var b bytes.Buffer
	b.Grow(states*900 + transitions*1000)
	d.write(&b)
	return b.Bytes()
}

// GenerateDrawing draws a chart of the given numbers of states and
// transitions with the Goomba stencil, on one page, for benchmarks. States are shapes 1
// to states, named "s1", "s2"...; s1 is the initial state; state i has
// XMovement and Animation values number i%4 of their drop-lists.
// Transition j (shape states+1+j) leaves state 1+j%states, tests test
// number (j/states)%4 of the stencil, and goes to state
// 1+(j%states+1+7×(j/states))%states: the first round of transitions
// chains every state to the next, so that every state is reachable, and no
// state tests the same test twice while transitions ≤ 4×states.
//
// It panics if states < 1.
func GenerateDrawing(states, transitions int) *Drawing {
	if states < 1 {
		panic("vdxgen: Generate: states must be at least 1")
	}
	pg := Page{ID: "0", Name: "Page-1", Shapes: make([]Shape, 0, states+transitions)}
	moves := strings.Split(XMovements, ";")
	anims := strings.Split(Animations, ";")
	tests := strings.Split(Tests, ";")
	for i := 1; i <= states; i++ {
		master := MasterState
		if i == 1 {
			master = MasterInitial
		}
		pg.Shapes = append(pg.Shapes, State(strconv.Itoa(i), master, "s"+strconv.Itoa(i), moves[i%4], anims[i%4]))
	}
	pg.Connects = make([]Connect, 0, 2*transitions)
	for j := range transitions {
		id := strconv.Itoa(states + 1 + j)
		from, round := j%states, j/states
		to := (from + 1 + 7*round) % states
		pg.Shapes = append(pg.Shapes, Transition(id, tests[round%4]))
		pg.Connects = append(pg.Connects, Glue(id, strconv.Itoa(from+1), strconv.Itoa(to+1))...)
	}
	return &Drawing{Masters: GoombaMasters(), Pages: []Page{pg}}
}
