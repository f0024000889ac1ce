package visio

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// WriteStencil writes st as a Visio XML stencil (.vsx, the format of Visio
// 2003 to 2010, which later versions open too): a VisioDocument with the
// stencil's masters and no pages. Designers drag its masters into their
// drawings; a drawing made with them reads back with st without a warning.
//
// It writes one master per part of the stencil, named with the stencil's
// master names: the initial state (if st has one) and the state, 2-D boxes
// whose Shape Data rows are the name property and one drop-list per action
// property (its Format the values joined by ';', the first value picked);
// the transition, a 1-D connector whose rows are the test (a drop-list of
// the stencil's tests), the value, the order (a number, 0 for document
// order), the stack operation (none, push or return) and whether its free
// end ends the machine on purpose (final, a boolean, false); and the message
// handler (if st has one), a 2-D box without rows. Then the masters of
// statecharts st names: the composite and the parallel state, Visio
// containers (a User row msvStructureType = "Container": Visio 2010 and
// later make the shapes dropped into them their members) with the rows of
// a state and the name written at the top, the parallel one outlined with
// dashes; the history and the deep history, small circles saying "H" and
// "H*", and the start, a smaller filled circle, all three without rows.
// Rows take the names of [chart.Stencil.PropertyNames] as labels; their
// Visio row names are the same with characters other than ASCII letters,
// digits and '_' made '_'. The document's title is the stencil's name and
// its subject gives the version.
//
// WriteStencil validates st first ([chart.Stencil.Validate]) and returns
// that error when it is invalid, or the error of w. The output depends on
// st alone: writing the same stencil twice gives the same bytes.
func WriteStencil(w io.Writer, st *chart.Stencil) error {
	if st == nil {
		return fmt.Errorf("visio: WriteStencil: nil stencil")
	}
	if err := st.Validate(); err != nil {
		return err
	}
	sw := &stencilWriter{st: st, names: st.PropertyNames()}
	sw.write()
	_, err := sw.b.WriteTo(w)
	return err
}

type stencilWriter struct {
	st    *chart.Stencil
	names chart.Properties
	b     bytes.Buffer
}

// xmlEscape escapes s for an attribute or text between single quotes.
func xmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&apos;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// rowNames gives each property a Visio row name, unique in its shape.
type rowNames map[string]bool

func (seen rowNames) name(label string) string {
	var b strings.Builder
	for _, c := range []byte(label) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteByte(c)
		} else if b.Len() == 0 || !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" || name[0] >= '0' && name[0] <= '9' || name[0] == '_' {
		name = "P" + name
	}
	for i, base := 2, name; seen[strings.ToLower(name)]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	seen[strings.ToLower(name)] = true
	return name
}

// guid makes a stable GUID for a master from the stencil's name and the
// master's: Visio matches masters across documents by their IDs.
func guid(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return fmt.Sprintf("{%X-%X-%X-%X-%X}", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// The IDs of the masters WriteStencil writes.
const (
	stencilInitialID    = "2"
	stencilStateID      = "3"
	stencilTransitionID = "4"
	stencilHandlerID    = "5"
	stencilCompositeID  = "6"
	stencilParallelID   = "7"
	stencilHistoryID    = "8"
	stencilDeepID       = "9"
	stencilStartID      = "10"
)

func (sw *stencilWriter) write() {
	st, b := sw.st, &sw.b
	version := st.Version
	if version == "" {
		version = "unnumbered"
	}
	b.WriteString("<?xml version='1.0' encoding='utf-8' ?>\n")
	b.WriteString("<VisioDocument xmlns='" + NamespaceVDX2003 + "' start='190' metric='0' DocLangID='1033' version='11.0'>\n")
	fmt.Fprintf(b, "  <DocumentProperties>\n    <Title>%s</Title>\n    <Subject>fsmforge stencil %s, version %s</Subject>\n    <Creator>fsmforge</Creator>\n",
		xmlEscape(st.Name), xmlEscape(strconv.Quote(st.Name)), xmlEscape(version))
	b.WriteString("    <Desc>Masters for state machines: draw states and transitions with them, pick tests and actions in Shape Data, and read the drawing with the stencil file of the same name.</Desc>\n  </DocumentProperties>\n")
	b.WriteString(stencilPreamble)
	b.WriteString("  <Masters>\n")
	if st.Masters.Initial != "" {
		sw.stateMaster(stencilInitialID, st.Masters.Initial, "The state the machine starts in.", true)
	}
	sw.stateMaster(stencilStateID, st.Masters.State, "A state: pick its entry actions in Shape Data.", false)
	sw.transitionMaster()
	if st.Masters.AnyState != "" {
		sw.handlerMaster()
	}
	if st.Masters.Composite != "" {
		prompt := "A composite state: drop its states into it, and draw the one it starts in with the initial state's master."
		if st.Masters.Start != "" {
			prompt = "A composite state: drop its states into it, with a start whose transition goes to the state it starts in."
		}
		sw.containerMaster(stencilCompositeID, st.Masters.Composite, prompt, false)
	}
	if st.Masters.Parallel != "" {
		sw.containerMaster(stencilParallelID, st.Masters.Parallel,
			"A parallel state: drop its regions into it, composite states that are all active together.", true)
	}
	if st.Masters.History != "" {
		sw.historyMaster(stencilHistoryID, st.Masters.History, "H",
			"History: drop it into a composite state; a transition to it enters the state last active there.")
	}
	if st.Masters.DeepHistory != "" {
		sw.historyMaster(stencilDeepID, st.Masters.DeepHistory, "H*",
			"Deep history: drop it into a composite state; a transition to it enters the states last active there, at every level.")
	}
	if st.Masters.Start != "" {
		sw.startMaster()
	}
	b.WriteString("  </Masters>\n</VisioDocument>\n")
}

// stencilPreamble holds the document's settings, colours, fonts and
// styles: 0 No Style, 1 None, 2 Normal (boxes), 3 Guide, 4 Connector.
const stencilPreamble = `  <DocumentSettings TopPage='0' DefaultTextStyle='2' DefaultLineStyle='2' DefaultFillStyle='2' DefaultGuideStyle='3'>
    <GlueSettings>9</GlueSettings><SnapSettings>295</SnapSettings><SnapExtensions>34</SnapExtensions><DynamicGridEnabled>1</DynamicGridEnabled><ProtectStyles>0</ProtectStyles><ProtectShapes>0</ProtectShapes><ProtectMasters>0</ProtectMasters><ProtectBkgnds>0</ProtectBkgnds>
  </DocumentSettings>
  <Colors>
    <ColorEntry IX='0' RGB='#000000'/><ColorEntry IX='1' RGB='#FFFFFF'/><ColorEntry IX='2' RGB='#FF0000'/><ColorEntry IX='3' RGB='#00FF00'/>
    <ColorEntry IX='4' RGB='#0000FF'/><ColorEntry IX='5' RGB='#FFFF00'/><ColorEntry IX='6' RGB='#FF00FF'/><ColorEntry IX='7' RGB='#00FFFF'/>
    <ColorEntry IX='8' RGB='#800000'/><ColorEntry IX='9' RGB='#008000'/><ColorEntry IX='10' RGB='#000080'/><ColorEntry IX='11' RGB='#808000'/>
    <ColorEntry IX='12' RGB='#800080'/><ColorEntry IX='13' RGB='#008080'/><ColorEntry IX='14' RGB='#C0C0C0'/><ColorEntry IX='15' RGB='#E6E6E6'/>
  </Colors>
  <FaceNames>
    <FaceName ID='1' Name='Arial' UnicodeRanges='-536859905 -1073711037 9 0' CharSets='1073742335 -65536' Panos='2 11 6 4 2 2 2 2 2 4' Flags='325'/>
  </FaceNames>
  <StyleSheets>
    <StyleSheet ID='0' NameU='No Style' Name='No Style'>
      <StyleProp><EnableLineProps>1</EnableLineProps><EnableFillProps>1</EnableFillProps><EnableTextProps>1</EnableTextProps><HideForApply>0</HideForApply></StyleProp>
      <Line><LineWeight>0.01041666666666667</LineWeight><LineColor>0</LineColor><LinePattern>1</LinePattern><Rounding>0</Rounding><EndArrowSize>2</EndArrowSize><BeginArrow>0</BeginArrow><EndArrow>0</EndArrow><LineCap>0</LineCap><BeginArrowSize>2</BeginArrowSize><LineColorTrans>0</LineColorTrans></Line>
      <Fill><FillForegnd>1</FillForegnd><FillBkgnd>0</FillBkgnd><FillPattern>1</FillPattern><ShdwForegnd>0</ShdwForegnd><ShdwBkgnd>1</ShdwBkgnd><ShdwPattern>0</ShdwPattern><FillForegndTrans>0</FillForegndTrans><FillBkgndTrans>0</FillBkgndTrans><ShdwForegndTrans>0</ShdwForegndTrans><ShdwBkgndTrans>0</ShdwBkgndTrans><ShapeShdwType>0</ShapeShdwType><ShapeShdwOffsetX>0</ShapeShdwOffsetX><ShapeShdwOffsetY>0</ShapeShdwOffsetY><ShapeShdwObliqueAngle>0</ShapeShdwObliqueAngle><ShapeShdwScaleFactor>1</ShapeShdwScaleFactor></Fill>
      <TextBlock><LeftMargin>0</LeftMargin><RightMargin>0</RightMargin><TopMargin>0</TopMargin><BottomMargin>0</BottomMargin><VerticalAlign>1</VerticalAlign><TextBkgnd>0</TextBkgnd><DefaultTabStop>0.5</DefaultTabStop><TextDirection>0</TextDirection><TextBkgndTrans>0</TextBkgndTrans></TextBlock>
      <Char IX='0'><Font>1</Font><Color>0</Color><Style>0</Style><Case>0</Case><Pos>0</Pos><FontScale>1</FontScale><Size>0.1666666666666667</Size><LangID>1033</LangID></Char>
      <Para IX='0'><IndFirst>0</IndFirst><IndLeft>0</IndLeft><IndRight>0</IndRight><SpLine>-1.2</SpLine><SpBefore>0</SpBefore><SpAfter>0</SpAfter><HorzAlign>1</HorzAlign><Bullet>0</Bullet><Flags>0</Flags></Para>
    </StyleSheet>
    <StyleSheet ID='1' NameU='None' Name='None' LineStyle='0' FillStyle='0' TextStyle='0'>
      <StyleProp><EnableLineProps>1</EnableLineProps><EnableFillProps>1</EnableFillProps><EnableTextProps>1</EnableTextProps><HideForApply>0</HideForApply></StyleProp>
      <Line><LinePattern>0</LinePattern></Line><Fill><FillPattern>0</FillPattern></Fill>
    </StyleSheet>
    <StyleSheet ID='2' NameU='Normal' Name='Normal' LineStyle='0' FillStyle='0' TextStyle='0'>
      <StyleProp><EnableLineProps>1</EnableLineProps><EnableFillProps>1</EnableFillProps><EnableTextProps>1</EnableTextProps><HideForApply>0</HideForApply></StyleProp>
      <TextBlock><LeftMargin Unit='PT'>0.05555555555555555</LeftMargin><RightMargin Unit='PT'>0.05555555555555555</RightMargin><TopMargin Unit='PT'>0.05555555555555555</TopMargin><BottomMargin Unit='PT'>0.05555555555555555</BottomMargin><VerticalAlign>1</VerticalAlign><TextBkgnd>0</TextBkgnd><DefaultTabStop>0.5</DefaultTabStop><TextDirection>0</TextDirection><TextBkgndTrans>0</TextBkgndTrans></TextBlock>
    </StyleSheet>
    <StyleSheet ID='3' NameU='Guide' Name='Guide' LineStyle='0' FillStyle='0' TextStyle='0'>
      <StyleProp><EnableLineProps>1</EnableLineProps><EnableFillProps>1</EnableFillProps><EnableTextProps>1</EnableTextProps><HideForApply>0</HideForApply></StyleProp>
      <Line><LineWeight Unit='PT'>0</LineWeight><LineColor>4</LineColor><LinePattern>23</LinePattern></Line><Fill><FillPattern>0</FillPattern></Fill><Misc><NonPrinting>1</NonPrinting></Misc>
    </StyleSheet>
    <StyleSheet ID='4' NameU='Connector' Name='Connector' LineStyle='2' FillStyle='2' TextStyle='2'>
      <StyleProp><EnableLineProps>1</EnableLineProps><EnableFillProps>1</EnableFillProps><EnableTextProps>1</EnableTextProps><HideForApply>0</HideForApply></StyleProp>
      <Line><EndArrow>4</EndArrow></Line><TextBlock><TextBkgnd>2</TextBkgnd></TextBlock>
    </StyleSheet>
  </StyleSheets>
  <DocumentSheet NameU='TheDoc' Name='TheDoc' LineStyle='0' FillStyle='0' TextStyle='0'>
    <DocProps><OutputFormat>0</OutputFormat><LockPreview>0</LockPreview><AddMarkup>0</AddMarkup><ViewMarkup>0</ViewMarkup><PreviewQuality>0</PreviewQuality><PreviewScope>0</PreviewScope><DocLangID>1033</DocLangID></DocProps>
  </DocumentSheet>
`

// masterStart writes a master's element, page sheet and shape start tag.
func (sw *stencilWriter) masterStart(id, name, prompt, width, height, style string) {
	fmt.Fprintf(&sw.b, "    <Master ID='%s' NameU='%s' Name='%s' Prompt='%s' IconSize='1' AlignName='2' MatchByName='0' IconUpdate='1' UniqueID='%s' BaseID='%s' PatternFlags='0' Hidden='0'>\n",
		id, xmlEscape(name), xmlEscape(name), xmlEscape(prompt), guid("unique", sw.st.Name, name), guid("base", sw.st.Name, name))
	fmt.Fprintf(&sw.b, "      <PageSheet LineStyle='0' FillStyle='0' TextStyle='0'><PageProps><PageWidth Unit='IN_F'>%s</PageWidth><PageHeight Unit='IN_F'>%s</PageHeight><ShdwOffsetX Unit='IN_F'>0.125</ShdwOffsetX><ShdwOffsetY Unit='IN_F'>-0.125</ShdwOffsetY><PageScale Unit='IN_F'>1</PageScale><DrawingScale Unit='IN_F'>1</DrawingScale><DrawingSizeType>1</DrawingSizeType><DrawingScaleType>0</DrawingScaleType><InhibitSnap>0</InhibitSnap></PageProps></PageSheet>\n",
		width, height)
	fmt.Fprintf(&sw.b, "      <Shapes>\n        <Shape ID='5' Type='Shape' LineStyle='%s' FillStyle='%s' TextStyle='%s'>\n", style, style, style)
}

func (sw *stencilWriter) masterEnd() {
	sw.b.WriteString("        </Shape>\n      </Shapes>\n    </Master>\n")
}

// boxStyle is how a 2-D master's shape looks: its size in inches, its
// line's weight (points) and pattern, its fill colour (an index in the
// document's colours), the rounding of its corners (inches), and how many
// of the glue points of boxStart it has (4 or 8).
type boxStyle struct {
	w, h                            float64
	weight, pattern, fill, rounding string
	points                          int
}

// The looks of the masters WriteStencil writes.
var (
	stateStyle     = boxStyle{w: 1.5, h: 0.75, weight: "0.01388888888888889", pattern: "1", fill: "1", rounding: "0.125", points: 8}
	initialStyle   = boxStyle{w: 1.5, h: 0.75, weight: "0.04166666666666666", pattern: "1", fill: "15", rounding: "0.125", points: 8}
	handlerStyle   = boxStyle{w: 1.5, h: 0.75, weight: "0.02777777777777778", pattern: "1", fill: "14", rounding: "0.375", points: 8}
	compositeStyle = boxStyle{w: 3.5, h: 2.5, weight: "0.01388888888888889", pattern: "1", fill: "1", rounding: "0.125", points: 8}
	parallelStyle  = boxStyle{w: 3.5, h: 2.5, weight: "0.01388888888888889", pattern: "2", fill: "1", rounding: "0.125", points: 8}
	historyStyle   = boxStyle{w: 0.3, h: 0.3, weight: "0.01388888888888889", pattern: "1", fill: "1", rounding: "0", points: 4}
	startStyle     = boxStyle{w: 0.25, h: 0.25, weight: "0.01388888888888889", pattern: "1", fill: "0", rounding: "0", points: 4}
)

// num writes a length in inches as the file does.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// box writes the cells of a 2-D box of style bs: its place and size, line
// and fill, its Shape Data rows props, glue points, a text field showing
// field, and a rounded rectangle.
func (sw *stencilWriter) box(bs boxStyle, props, field, text string) {
	sw.boxStart(bs, props)
	sw.field(field, text)
	sw.rectangle(bs)
	sw.text(field, text)
}

// boxStart writes the cells of a 2-D box of style bs, centred on its
// master's page (see masterPage): its place and size, line, fill and
// events, then rows, the sections written before its glue points (its
// Shape Data rows), then the glue points: at the middle of each side, and
// (with 8 points) at a quarter and three quarters of its height on the
// left and right sides.
func (sw *stencilWriter) boxStart(bs boxStyle, rows string) {
	b := &sw.b
	pw, ph := masterPage(bs)
	fmt.Fprintf(b, "          <XForm><PinX>%s</PinX><PinY>%s</PinY><Width>%s</Width><Height>%s</Height><LocPinX F='Width*0.5'>%s</LocPinX><LocPinY F='Height*0.5'>%s</LocPinY><Angle>0</Angle><FlipX>0</FlipX><FlipY>0</FlipY><ResizeMode>0</ResizeMode></XForm>\n",
		num(pw/2), num(ph/2), num(bs.w), num(bs.h), num(bs.w/2), num(bs.h/2))
	fmt.Fprintf(b, "          <Line><LineWeight Unit='PT'>%s</LineWeight><LineColor>0</LineColor><LinePattern>%s</LinePattern><Rounding Unit='IN'>%s</Rounding><EndArrowSize>2</EndArrowSize><BeginArrow>0</BeginArrow><EndArrow>0</EndArrow><LineCap>0</LineCap><BeginArrowSize>2</BeginArrowSize><LineColorTrans>0</LineColorTrans></Line>\n", bs.weight, bs.pattern, bs.rounding)
	fmt.Fprintf(b, "          <Fill><FillForegnd>%s</FillForegnd><FillBkgnd>0</FillBkgnd><FillPattern>1</FillPattern><ShdwForegnd>0</ShdwForegnd><ShdwBkgnd>1</ShdwBkgnd><ShdwPattern>0</ShdwPattern></Fill>\n", bs.fill)
	b.WriteString("          <Event><TheData F='No Formula'>0</TheData><TheText F='No Formula'>0</TheText><EventDblClick F='DOCMD(1312)'>0</EventDblClick><EventXFMod F='No Formula'>0</EventXFMod><EventDrop F='No Formula'>0</EventDrop></Event>\n")
	b.WriteString(rows)
	points := [...][2]float64{{0, 0.5}, {1, 0.5}, {0.5, 1}, {0.5, 0}, {1, 0.75}, {0, 0.75}, {1, 0.25}, {0, 0.25}}
	for i, c := range points[:bs.points] {
		fmt.Fprintf(b, "          <Connection IX='%d'><X F='Width*%s'>%s</X><Y F='Height*%s'>%s</Y><DirX>0</DirX><DirY>0</DirY><Type>0</Type><AutoGen>0</AutoGen><Prompt F='No Formula'/></Connection>\n",
			i, num(c[0]), num(c[0]*bs.w), num(c[1]), num(c[1]*bs.h))
	}
}

// masterPage returns the size of the page of a master whose shape has
// style bs: a quarter inch around the shape.
func masterPage(bs boxStyle) (w, h float64) { return bs.w + 0.5, bs.h + 0.5 }

// rectangle writes the geometry of a box of style bs.
func (sw *stencilWriter) rectangle(bs boxStyle) {
	w, h := num(bs.w), num(bs.h)
	fmt.Fprintf(&sw.b, "          <Geom IX='0'><NoFill>0</NoFill><NoLine>0</NoLine><NoShow>0</NoShow><NoSnap>0</NoSnap><MoveTo IX='1'><X F='Width*0'>0</X><Y F='Height*0'>0</Y></MoveTo><LineTo IX='2'><X F='Width*1'>%s</X><Y F='Height*0'>0</Y></LineTo><LineTo IX='3'><X F='Width*1'>%s</X><Y F='Height*1'>%s</Y></LineTo><LineTo IX='4'><X F='Width*0'>0</X><Y F='Height*1'>%s</Y></LineTo><LineTo IX='5'><X F='Geometry1.X1'>0</X><Y F='Geometry1.Y1'>0</Y></LineTo></Geom>\n",
		w, w, h, h)
}

// field writes a text field showing the row field (a formula's
// reference, "Prop.Name"), or nothing when field is "".
func (sw *stencilWriter) field(field, text string) {
	if field == "" {
		return
	}
	fmt.Fprintf(&sw.b, "          <Field IX='0'><Value Unit='STR' F='%s'>%s</Value><EditMode>0</EditMode><Format F='FIELDPICTURE(0)'>0</Format><Type>0</Type><UICat>3</UICat><UICod>0</UICod><UIFmt>0</UIFmt><Calendar>0</Calendar><ObjectKind>0</ObjectKind></Field>\n",
		field, xmlEscape(text))
}

// text writes the shape's text: the field, or text itself.
func (sw *stencilWriter) text(field, text string) {
	if field != "" {
		fmt.Fprintf(&sw.b, "          <Text><cp IX='0'/><fld IX='0'>%s</fld></Text>\n", xmlEscape(text))
	} else {
		fmt.Fprintf(&sw.b, "          <Text><cp IX='0'/>%s</Text>\n", xmlEscape(text))
	}
}

// prop writes a Shape Data row: a string (Type 0), a list of values
// (Type 1, the first picked), a number (Type 2) or a boolean (Type 3,
// false).
func (sw *stencilWriter) prop(b *strings.Builder, id int, row, label string, typ int, values []string) {
	value, format, unit, formula := "", "", "STR", ""
	switch typ {
	case 1:
		value, format = values[0], strings.Join(values, ";")
		formula = fmt.Sprintf(" F='INDEX(0,Prop.%s.Format)'", row)
	case 2:
		value, unit = "0", "NUM"
	case 3:
		value, unit, formula = "0", "BOOL", " F='FALSE'"
	}
	fmt.Fprintf(b, "          <Prop NameU='%s' Name='%s' ID='%d'><Value Unit='%s'%s>%s</Value><Prompt>%s</Prompt><Label>%s</Label><Format>%s</Format><SortKey>%d</SortKey><Type>%d</Type><Invisible>0</Invisible><Verify>0</Verify><LangID>1033</LangID><Calendar>0</Calendar></Prop>\n",
		row, row, id, unit, formula, xmlEscape(value), xmlEscape(label), xmlEscape(label), xmlEscape(format), id, typ)
}

// stateProps returns the Shape Data rows of a state's master: the name
// property, a string, then one drop-list per action property; and the
// name's row name.
func (sw *stencilWriter) stateProps() (props, nameRow string) {
	seen := rowNames{}
	var b strings.Builder
	nameRow = seen.name(sw.names.Name)
	sw.prop(&b, 1, nameRow, sw.names.Name, 0, nil)
	for i, a := range sw.st.Actions {
		sw.prop(&b, i+2, seen.name(a.Name), a.Name, 1, a.Values)
	}
	return b.String(), nameRow
}

// masterStartStyle writes a master's start (see masterStart) for a 2-D
// shape of style bs, with the Normal style.
func (sw *stencilWriter) masterStartStyle(id, name, prompt string, bs boxStyle) {
	pw, ph := masterPage(bs)
	sw.masterStart(id, name, prompt, num(pw), num(ph), "2")
}

func (sw *stencilWriter) stateMaster(id, name, prompt string, initial bool) {
	props, nameRow := sw.stateProps()
	bs := stateStyle
	if initial {
		bs = initialStyle
	}
	sw.masterStartStyle(id, name, prompt, bs)
	sw.box(bs, props, "Prop."+nameRow, "")
	sw.masterEnd()
}

func (sw *stencilWriter) handlerMaster() {
	sw.masterStartStyle(stencilHandlerID, sw.st.Masters.AnyState, "Transitions that start here apply in every state.", handlerStyle)
	sw.box(handlerStyle, "", "", "on message")
	sw.masterEnd()
}

// headingHeight is the height of a container's heading, in inches: the
// band at its top where its name is written.
const headingHeight = 0.3

// containerMaster writes the master of a composite state, or of a
// parallel state: a Visio container (its User row msvStructureType is
// "Container"; members are kept 1/8 inch inside it, and it grows to hold
// them) with the rows of a state, its name written in a heading, a band
// at its top under which a line runs. A parallel state is outlined with
// dashes.
func (sw *stencilWriter) containerMaster(id, name, prompt string, parallel bool) {
	b := &sw.b
	props, nameRow := sw.stateProps()
	bs := compositeStyle
	if parallel {
		bs = parallelStyle
	}
	sw.masterStartStyle(id, name, prompt, bs)
	heading := fmt.Sprintf("          <TextXForm><TxtPinX F='Width*0.5'>%s</TxtPinX><TxtPinY F='Height-TxtHeight*0.5'>%s</TxtPinY><TxtWidth F='Width*1'>%s</TxtWidth><TxtHeight F='%sIN'>%s</TxtHeight><TxtLocPinX F='TxtWidth*0.5'>%s</TxtLocPinX><TxtLocPinY F='TxtHeight*0.5'>%s</TxtLocPinY><TxtAngle>0</TxtAngle></TextXForm>\n",
		num(bs.w/2), num(bs.h-headingHeight/2), num(bs.w), num(headingHeight), num(headingHeight), num(bs.w/2), num(headingHeight/2))
	user := "          <User NameU='msvStructureType' Name='msvStructureType' ID='1'><Value Unit='STR'>Container</Value><Prompt F='No Formula'/></User>\n" +
		"          <User NameU='msvSDContainerMargin' Name='msvSDContainerMargin' ID='2'><Value Unit='IN'>0.125</Value><Prompt F='No Formula'/></User>\n" +
		"          <User NameU='msvSDContainerResize' Name='msvSDContainerResize' ID='3'><Value>1</Value><Prompt F='No Formula'/></User>\n"
	sw.boxStart(bs, heading+user+props)
	sw.field("Prop."+nameRow, "")
	sw.rectangle(bs)
	fmt.Fprintf(b, "          <Geom IX='1'><NoFill>1</NoFill><NoLine>0</NoLine><NoShow>0</NoShow><NoSnap>0</NoSnap><MoveTo IX='1'><X F='Width*0'>0</X><Y F='Height-%sIN'>%s</Y></MoveTo><LineTo IX='2'><X F='Width*1'>%s</X><Y F='Geometry2.Y1'>%s</Y></LineTo></Geom>\n",
		num(headingHeight), num(bs.h-headingHeight), num(bs.w), num(bs.h-headingHeight))
	sw.text("Prop."+nameRow, "")
	sw.masterEnd()
}

// historyMaster writes the master of a history pseudo-state: a circle
// saying text, "H" or "H*", without Shape Data.
func (sw *stencilWriter) historyMaster(id, name, text, prompt string) {
	sw.masterStartStyle(id, name, prompt, historyStyle)
	sw.boxStart(historyStyle, "")
	sw.ellipse(historyStyle)
	sw.text("", text)
	sw.masterEnd()
}

// startMaster writes the master of a start pseudo-state: a small filled
// circle, without Shape Data or text.
func (sw *stencilWriter) startMaster() {
	sw.masterStartStyle(stencilStartID, sw.st.Masters.Start,
		"Start: drop it into a composite state (or on the page), and draw one transition from it, without a test, to the state it starts in.", startStyle)
	sw.boxStart(startStyle, "")
	sw.ellipse(startStyle)
	sw.masterEnd()
}

// ellipse writes the geometry of an ellipse that fills a box of style bs.
func (sw *stencilWriter) ellipse(bs boxStyle) {
	fmt.Fprintf(&sw.b, "          <Geom IX='0'><NoFill>0</NoFill><NoLine>0</NoLine><NoShow>0</NoShow><NoSnap>0</NoSnap><Ellipse IX='1'><X F='Width*0.5'>%s</X><Y F='Height*0.5'>%s</Y><A F='Width*1'>%s</A><B F='Height*0.5'>%s</B><C F='Width*0.5'>%s</C><D F='Height*1'>%s</D></Ellipse></Geom>\n",
		num(bs.w/2), num(bs.h/2), num(bs.w), num(bs.h/2), num(bs.w/2), num(bs.h))
}

func (sw *stencilWriter) transitionMaster() {
	st, names, b := sw.st, sw.names, &sw.b
	seen := rowNames{}
	tests := make([]string, len(st.Tests))
	for i, t := range st.Tests {
		tests[i] = t.Name
	}
	var props strings.Builder
	testRow := seen.name(names.Test)
	sw.prop(&props, 1, testRow, names.Test, 1, tests)
	sw.prop(&props, 2, seen.name(names.Value), names.Value, 0, nil)
	sw.prop(&props, 3, seen.name(names.Order), names.Order, 2, nil)
	sw.prop(&props, 4, seen.name(names.Stack), names.Stack, 1, []string{chart.StackNone, chart.StackPush, chart.StackReturn})
	sw.prop(&props, 5, seen.name(names.Final), names.Final, 3, nil)
	sw.masterStart(stencilTransitionID, st.Masters.Transition, "Glue the start to the state it leaves and the end to the state it enters; leave the end free for the final state.", "2", "1", "4")
	b.WriteString("          <XForm><PinX F='GUARD((BeginX+EndX)/2)'>1</PinX><PinY F='GUARD((BeginY+EndY)/2)'>0.5</PinY><Width F='GUARD(SQRT((EndX-BeginX)^2+(EndY-BeginY)^2))'>1.5</Width><Height>0</Height><LocPinX F='GUARD(Width*0.5)'>0.75</LocPinX><LocPinY F='GUARD(Height*0.5)'>0</LocPinY><Angle F='GUARD(ATAN2(EndY-BeginY,EndX-BeginX))'>0</Angle><FlipX F='GUARD(FALSE)'>0</FlipX><FlipY F='GUARD(FALSE)'>0</FlipY><ResizeMode>0</ResizeMode></XForm>\n")
	b.WriteString("          <XForm1D><BeginX>0.25</BeginX><BeginY>0.5</BeginY><EndX>1.75</EndX><EndY>0.5</EndY></XForm1D>\n")
	b.WriteString("          <Line><LineWeight Unit='PT'>0.01388888888888889</LineWeight><LineColor>0</LineColor><LinePattern>1</LinePattern><Rounding>0</Rounding><EndArrowSize>2</EndArrowSize><BeginArrow>0</BeginArrow><EndArrow>4</EndArrow><LineCap>0</LineCap><BeginArrowSize>2</BeginArrowSize><LineColorTrans>0</LineColorTrans></Line>\n")
	b.WriteString("          <Misc><NoObjHandles>0</NoObjHandles><NonPrinting>0</NonPrinting><NoCtlHandles>0</NoCtlHandles><NoAlignBox>1</NoAlignBox><UpdateAlignBox>0</UpdateAlignBox><HideText>0</HideText><DynFeedback>0</DynFeedback><GlueType>0</GlueType><WalkPreference>0</WalkPreference><BegTrigger F='No Formula'>0</BegTrigger><EndTrigger F='No Formula'>0</EndTrigger><ObjType>2</ObjType><Comment/><IsDropSource>0</IsDropSource><NoLiveDynamics>0</NoLiveDynamics><LocalizeMerge>0</LocalizeMerge><Calendar>0</Calendar><LangID>1033</LangID><ShapeKeywords/><DropOnPageScale>1</DropOnPageScale></Misc>\n")
	b.WriteString("          <TextXForm><TxtPinX F='Width*0.5'>0.75</TxtPinX><TxtPinY F='Height*0.5'>0</TxtPinY><TxtWidth F='TEXTWIDTH(TheText)'>1.25</TxtWidth><TxtHeight F='TEXTHEIGHT(TheText,TxtWidth)'>0.2</TxtHeight><TxtLocPinX F='TxtWidth*0.5'>0.625</TxtLocPinX><TxtLocPinY F='TxtHeight*0.5'>0.1</TxtLocPinY><TxtAngle>0</TxtAngle></TextXForm>\n")
	b.WriteString(props.String())
	sw.field("Prop."+testRow, tests[0])
	b.WriteString("          <Geom IX='0'><NoFill>1</NoFill><NoLine>0</NoLine><NoShow>0</NoShow><NoSnap>0</NoSnap><MoveTo IX='1'><X F='Width*0'>0</X><Y F='Height*0'>0</Y></MoveTo><LineTo IX='2'><X F='Width*1'>1.5</X><Y F='Height*0'>0</Y></LineTo></Geom>\n")
	sw.text("Prop."+testRow, tests[0])
	sw.masterEnd()
}
