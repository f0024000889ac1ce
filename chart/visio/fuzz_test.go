package visio_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// The fuzz targets start from tiny drawings, of a kilobyte or two, and
// from tiny files of each hostile kind the reader refuses (see
// hostileSeeds): the Go fuzzer minimizes each input that finds new
// coverage, for up to a minute, in a time that grows as the square of its
// size, so that seeds of tens of kilobytes (the Goomba's, the drawings of
// testdata, which the other tests read) keep it minimizing rather than
// fuzzing. Each input is read within lower limits than the defaults
// (fuzzOptions), so that no input the fuzzer makes costs more than a few
// megabytes of XML to parse (four readings of 1 MiB).

// fuzzOptions are the options the fuzz targets read with: file, stencil,
// and limits lower than the defaults.
func fuzzOptions(file string, st *chart.Stencil) visio.Options {
	return visio.Options{File: file, Stencil: st, MaxDepth: 20, MaxSize: 1 << 20, MaxParts: 200, MaxPartSize: 1 << 20, MaxUnpacked: 1 << 20}
}

// FuzzRead feeds the reader arbitrary files, with and without a stencil: it
// must not panic or hang, it must return a chart or an error that is a
// diag.List, every diagnostic must render, and every chart must
// hold together (see checkChart).
//
//	go test -run '^$' -fuzz '^FuzzRead$' -fuzztime 1m ./chart/visio
func FuzzRead(f *testing.F) {
	f.Add([]byte(miniVDX))
	f.Add([]byte(miniUML))
	f.Add([]byte(miniNested))
	f.Add([]byte(miniStatechart))
	f.Add([]byte(miniStart))
	f.Add([]byte(inheritance))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("<VisioDocument xmlns='urn:schemas-microsoft-com:office:visio'><Pages><Page><Shapes><Shape ID='1'><Shapes><Shape ID='1'/></Shapes></Shape></Shapes><Connects><Connect FromSheet='1' FromCell='BeginX' ToSheet='1'/></Connects></Page></Pages></VisioDocument>"))
	for _, s := range hostileSeeds() {
		f.Add(s)
	}
	st := fuzzStencil(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, st) })
}

// miniVDX is a drawing made with the Goomba's stencil of a kilobyte: its
// masters, an initial state, a state with an action, a transition and a
// message handler.
const miniVDX = "<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'><Masters>" +
	"<Master ID='1' NameU='Initial State'/><Master ID='2' NameU='State'><Shapes><Shape ID='5'><Prop NameU='XMovement'><Value>left</Value>" +
	"<Format>existing;right;left;death</Format><Type>1</Type></Prop></Shape></Shapes></Master><Master ID='3' NameU='Transition'/>" +
	"<Master ID='4' NameU='Message Handler'/></Masters><Pages><Page ID='0'><PageSheet><PageProps><PageHeight>4</PageHeight></PageProps></PageSheet>" +
	"<Shapes><Shape ID='1' Master='1'><XForm><PinX>1</PinX><PinY>1</PinY><Width>1</Width><Height>1</Height></XForm><Text>a</Text></Shape>" +
	"<Shape ID='2' Master='2'><Prop NameU='Animation'><Value>death</Value></Prop><Text>b</Text></Shape>" +
	"<Shape ID='3' Master='3'><XForm1D/><Prop NameU='Test'><Value>hitByPlayer</Value></Prop><Prop NameU='Order'><Value>2</Value></Prop></Shape>" +
	"<Shape ID='4' Master='4'/></Shapes><Connects><Connect FromSheet='3' FromCell='BeginX' ToSheet='1'/><Connect FromSheet='3' FromCell='EndX' ToSheet='2'/>" +
	"</Connects></Page></Pages></VisioDocument>"

// fuzzStencil is the Goomba's stencil with masters of statecharts, whose
// shapes miniStatechart and miniStart draw: "Composite State", "Parallel
// State", "History", "Deep History" and "Start".
func fuzzStencil(tb testing.TB) *chart.Stencil {
	st := charttest.Stencil(tb)
	st.Masters.Composite, st.Masters.Parallel = "Composite State", "Parallel State"
	st.Masters.History, st.Masters.DeepHistory = "History", "Deep History"
	st.Masters.Start = "Start"
	return st
}

// miniStatechart is a drawing made with fuzzStencil of a kilobyte and a
// half: a parallel state p (1) whose regions are the composite states c
// (2, named by its Name row) and d (6); c holds a (3, initial), b (4) and
// a history (5, whose text is the master's "H"), d a deep history (7).
// a goes to b; the history, by a transition without a test, to a; b to
// d's deep history.
const miniStatechart = "<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core' xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'>" +
	"<Masters><Master ID='1' NameU='Initial State'/><Master ID='2' NameU='State'/><Master ID='3' NameU='Transition'/><Master ID='4' NameU='Composite State'/>" +
	"<Master ID='5' NameU='Parallel State'/><Master ID='6' NameU='History'><Shapes><Shape ID='5'><Text>H</Text></Shape></Shapes></Master>" +
	"<Master ID='7' NameU='Deep History'/></Masters><Pages><Page ID='0'><Shapes>" +
	"<Shape ID='1' Master='5'><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.2!SheetRef(),Sheet.6!SheetRef()))'/></v14:Layout><Text>p</Text></Shape>" +
	"<Shape ID='2' Master='4'><Prop NameU='Name'><Value>c</Value></Prop><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.3!SheetRef(),Sheet.4!SheetRef(),Sheet.5!SheetRef()))'/></v14:Layout></Shape>" +
	"<Shape ID='3' Master='1'><Text>a</Text></Shape><Shape ID='4' Master='2'><Text>b</Text></Shape><Shape ID='5' Master='6'/>" +
	"<Shape ID='6' Master='4'><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.7!SheetRef()))'/></v14:Layout><Text>d</Text></Shape><Shape ID='7' Master='7'/>" +
	"<Shape ID='8' Master='3'><XForm1D/><Prop NameU='Test'><Value>hitByPlayer</Value></Prop></Shape><Shape ID='9' Master='3'><XForm1D/></Shape>" +
	"<Shape ID='10' Master='3'><XForm1D/><Prop NameU='Test'><Value>animationDone</Value></Prop></Shape></Shapes><Connects>" +
	"<Connect FromSheet='8' FromCell='BeginX' ToSheet='3'/><Connect FromSheet='8' FromCell='EndX' ToSheet='4'/>" +
	"<Connect FromSheet='9' FromCell='BeginX' ToSheet='5'/><Connect FromSheet='9' FromCell='EndX' ToSheet='3'/>" +
	"<Connect FromSheet='10' FromCell='BeginX' ToSheet='4'/><Connect FromSheet='10' FromCell='EndX' ToSheet='7'/></Connects></Page></Pages></VisioDocument>"

// miniStart is a drawing made with fuzzStencil of a kilobyte: the machine
// starts in x (1, initial), which goes to the composite state c (2), whose
// start (3) says by a transition without a Test row that c starts in a
// (4), which goes to b (5).
const miniStart = "<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core' xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'>" +
	"<Masters><Master ID='1' NameU='Initial State'/><Master ID='2' NameU='State'/><Master ID='3' NameU='Transition'/><Master ID='4' NameU='Composite State'/>" +
	"<Master ID='8' NameU='Start'/></Masters><Pages><Page ID='0'><Shapes><Shape ID='1' Master='1'><Text>x</Text></Shape>" +
	"<Shape ID='2' Master='4'><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.3!SheetRef(),Sheet.4!SheetRef(),Sheet.5!SheetRef()))'/></v14:Layout><Text>c</Text></Shape>" +
	"<Shape ID='3' Master='8'/><Shape ID='4' Master='2'><Text>a</Text></Shape><Shape ID='5' Master='2'><Text>b</Text></Shape>" +
	"<Shape ID='6' Master='3'><XForm1D/></Shape><Shape ID='7' Master='3'><XForm1D/><Prop NameU='Test'><Value>hitByPlayer</Value></Prop></Shape>" +
	"<Shape ID='8' Master='3'><XForm1D/><Prop NameU='Test'><Value>animationDone</Value></Prop></Shape></Shapes><Connects>" +
	"<Connect FromSheet='6' FromCell='BeginX' ToSheet='3'/><Connect FromSheet='6' FromCell='EndX' ToSheet='4'/>" +
	"<Connect FromSheet='7' FromCell='BeginX' ToSheet='1'/><Connect FromSheet='7' FromCell='EndX' ToSheet='2'/>" +
	"<Connect FromSheet='8' FromCell='BeginX' ToSheet='4'/><Connect FromSheet='8' FromCell='EndX' ToSheet='5'/></Connects></Page></Pages></VisioDocument>"

// miniUML is a plain state diagram of half a kilobyte, in Visio 2002's
// namespace: a start, a state drawn as a group, a labelled connector.
const miniUML = "<VisioDocument xmlns='urn:schemas-microsoft-com:office:visio'><Masters><Master ID='1' NameU='Initial'/></Masters>" +
	"<Pages><Page ID='0'><Shapes><Shape ID='1' Master='1'/><Shape ID='2' Type='Group'><Text>idle</Text><Shapes><Shape ID='3'/></Shapes></Shape>" +
	"<Shape ID='4'><XForm1D/><Text>go [ok] / run</Text></Shape></Shapes><Connects><Connect FromSheet='4' FromCell='BeginX' ToSheet='1'/>" +
	"<Connect FromSheet='4' FromCell='EndX' ToSheet='3'/></Connects></Page></Pages></VisioDocument>"

// miniNested is a plain state diagram of a kilobyte: a composite state
// (a container named by its heading) holding a start, a state that holds
// the composite in turn (a cycle), and a history state.
const miniNested = "<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core' xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'>" +
	"<Masters><Master ID='1' NameU='Initial state'/><Master ID='2' NameU='Deep history'/><Master ID='3' NameU='Composite state'/></Masters>" +
	"<Pages><Page ID='0'><Shapes><Shape ID='1' Master='3' Type='Group'><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.3!SheetRef(),Sheet.5!SheetRef()))'/>" +
	"</v14:Layout><Shapes><Shape ID='2' MasterShape='6'><Text>busy</Text></Shape></Shapes></Shape><Shape ID='3' Master='1'/>" +
	"<Shape ID='4'><v14:Layout><v14:Relationships F='SUM(DEPENDSON(1,Sheet.1!SheetRef()),DEPENDSON(4,Sheet.1!SheetRef()))'/></v14:Layout><Text>a</Text></Shape>" +
	"<Shape ID='5' Master='2'/><Shape ID='6'><XForm1D/></Shape><Shape ID='7'><XForm1D/></Shape><Shape ID='8'><XForm1D/><Text>go</Text></Shape></Shapes>" +
	"<Connects><Connect FromSheet='6' FromCell='BeginX' ToSheet='3'/><Connect FromSheet='6' FromCell='EndX' ToSheet='4'/>" +
	"<Connect FromSheet='7' FromCell='BeginX' ToSheet='5'/><Connect FromSheet='7' FromCell='EndX' ToSheet='4'/>" +
	"<Connect FromSheet='8' FromCell='BeginX' ToSheet='4'/><Connect FromSheet='8' FromCell='EndX' ToSheet='2'/></Connects></Page></Pages></VisioDocument>"

// miniParts returns the parts of a package of two kilobytes: a master, a
// page with a state, a transition and their glue.
func miniParts() []vsdxgen.Part {
	const (
		head = "<?xml version='1.0' encoding='utf-8'?>"
		rels = "<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/relationships'>"
		rel  = "<Relationship Type='http://schemas.microsoft.com/visio/2010/relationships/"
		v    = " xmlns='" + visio.NamespaceVSDX + "' xmlns:r='http://schemas.openxmlformats.org/officeDocument/2006/relationships'"
		ct   = "<Override ContentType='application/vnd.ms-visio."
	)
	return []vsdxgen.Part{
		{Name: "[Content_Types].xml", Data: []byte(head + "<Types xmlns='http://schemas.openxmlformats.org/package/2006/content-types'>" +
			"<Default Extension='rels' ContentType='application/vnd.openxmlformats-package.relationships+xml'/>" +
			ct + "drawing.main+xml' PartName='/visio/document.xml'/>" + ct + "pages+xml' PartName='/visio/pages/pages.xml'/>" +
			ct + "page+xml' PartName='/visio/pages/page1.xml'/>" + ct + "masters+xml' PartName='/visio/masters/masters.xml'/>" +
			ct + "master+xml' PartName='/visio/masters/master1.xml'/></Types>")},
		{Name: "_rels/.rels", Data: []byte(rels + rel + "document' Id='r1' Target='visio/document.xml'/></Relationships>")},
		{Name: "visio/document.xml", Data: []byte("<VisioDocument" + v + "/>")},
		{Name: "visio/_rels/document.xml.rels", Data: []byte(rels + rel + "pages' Id='r1' Target='pages/pages.xml'/>" + rel + "masters' Id='r2' Target='masters/masters.xml'/></Relationships>")},
		{Name: "visio/masters/masters.xml", Data: []byte("<Masters" + v + "><Master ID='2' NameU='State'><Rel r:id='r1'/></Master><Master ID='3' NameU='Transition'/></Masters>")},
		{Name: "visio/masters/_rels/masters.xml.rels", Data: []byte(rels + rel + "master' Id='r1' Target='master1.xml'/></Relationships>")},
		{Name: "visio/masters/master1.xml", Data: []byte("<MasterContents" + v + "><Shapes><Shape ID='5'><Section N='Property'><Row N='XMovement'>" +
			"<Cell N='Value' V='left'/><Cell N='Format' V='existing;right;left;death'/><Cell N='Type' V='1'/></Row></Section><Text>s</Text></Shape></Shapes></MasterContents>")},
		{Name: "visio/pages/pages.xml", Data: []byte("<Pages" + v + "><Page ID='0' NameU='P'><PageSheet><Cell N='PageHeight' V='4'/></PageSheet><Rel r:id='r1'/></Page></Pages>")},
		{Name: "visio/pages/_rels/pages.xml.rels", Data: []byte(rels + rel + "page' Id='r1' Target='page1.xml'/></Relationships>")},
		{Name: page1, Data: []byte(head + "<PageContents" + v + "><Shapes><Shape ID='1' Master='2'><Cell N='PinX' V='1'/><Cell N='PinY' V='1'/>" +
			"<Cell N='Width' V='1'/><Cell N='Height' V='1'/><Text>a<cp IX='0'/>\u2028b</Text></Shape><Shape ID='2' Master='3'><Cell N='BeginX' V='0'/>" +
			"<Section N='Property'><Row N='Test'><Cell N='Value' V='animationDone'/></Row></Section></Shape></Shapes>" +
			"<Connects><Connect FromSheet='2' FromCell='BeginX' ToSheet='1'/><Connect FromSheet='2' FromCell='EndX' ToSheet='1'/></Connects></PageContents>")},
	}
}

// fuzzRead reads data with and without the stencil st and checks what
// every reading must satisfy: no panic, a chart or an error that is a list
// of errors, diagnostics that render, a chart that holds together, and for
// a package the chart Interpret reads from its Document (see
// checkAsDocument).
func fuzzRead(t *testing.T, data []byte, st *chart.Stencil) {
	for _, stencil := range []*chart.Stencil{nil, st} {
		o := fuzzOptions("fuzz.vdx", stencil)
		c, err := visio.Read(bytes.NewReader(data), o)
		checkChart(t, c, err)
		checkAsDocument(t, data, o, c, err)
	}
}

// FuzzReadVSDX feeds the reader damaged Visio packages: one of a few
// small packages (base; see fuzzBases), a text inserted into one of its
// parts (edit, at pos), some of its parts left out (drop, a bit a part)
// and the others stored or compressed (stored), then one byte of the
// zip changed (at, xor) and its end cut (cut). It fuzzes the zip's
// structure (headers, sizes, checksums, compression, missing parts);
// FuzzVSDXPart fuzzes what the parts say. See FuzzRead for what it checks;
// it checks too that reading the parts' text in a window of a few bytes
// changes nothing (see checkDecodeWindow).
//
// The only input the fuzzer minimizes, in a time that grows as the
// square of its size, is the edit: zip archives of kilobytes, most of
// whose changes make no zip at all, would keep it minimizing for a minute
// after each new find.
//
//	go test -run '^$' -fuzz '^FuzzReadVSDX$' -fuzztime 1m ./chart/visio
func FuzzReadVSDX(f *testing.F) {
	type damage struct {
		edit                  string
		base, part            uint8
		pos, drop, stored, at uint16
		xor                   byte
		cut                   uint16
	}
	for _, d := range []damage{
		{}, {base: 1}, {base: 2}, {base: 3}, {stored: 0xFFFF},
		{cut: 700}, {at: 8, xor: 1}, {at: 14, xor: 0xFF}, {at: 22, xor: 0x10}, {at: 0xFFFF, xor: 0x40}, {drop: 1}, {drop: 1 << 3},
		{edit: "\x00&#1;\uFFFE", part: 6, pos: 120}, {edit: "<" + strings.Repeat("n", 100) + ">", part: 6, pos: 100},
		{edit: "<Page ID='9'><Rel r:id='rId1'/></Page>", part: 4, pos: 90}, {edit: "\xFF\xFE", part: 2}, {edit: "<!--", part: 0, pos: 10},
	} {
		f.Add([]byte(d.edit), d.base, d.part, d.pos, d.drop, d.stored, d.at, d.xor, d.cut)
	}
	bases := fuzzBases()
	st := fuzzStencil(f)
	f.Fuzz(func(t *testing.T, edit []byte, base, part uint8, pos, drop, stored, at uint16, xor byte, cut uint16) {
		parts := slices.Clone(bases[int(base)%len(bases)])
		p := &parts[int(part)%len(parts)]
		i := int(pos) % (len(p.Data) + 1)
		p.Data = slices.Concat(p.Data[:i], edit, p.Data[i:])
		var kept []vsdxgen.Part
		for i, p := range parts {
			if drop&(1<<i) != 0 {
				continue
			}
			if stored&(1<<i) != 0 {
				p.Name = "~" + p.Name
			}
			kept = append(kept, p)
		}
		data := packTiny(kept)
		if len(data) > 0 {
			data[int(at)%len(data)] ^= xor
			data = data[:len(data)-int(cut)%len(data)]
		}
		if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
			// Much of what the fuzzer makes is no zip: once is enough.
			c, err := visio.Read(bytes.NewReader(data), fuzzOptions("fuzz.vsdx", st))
			checkChart(t, c, err)
			return
		}
		fuzzRead(t, data, st)
		checkDecodeWindow(t, data, fuzzOptions("w.vsdx", nil), len(data)%13+1)
	})
}

// fuzzBases are the packages FuzzReadVSDX damages: the smallest, the same
// with its page listed 30 times, or through 10 relationships, and one
// with masters.
func fuzzBases() [][]vsdxgen.Part {
	tiny := tinyParts()
	return [][]vsdxgen.Part{tiny, listedTimes(tiny, 30, false), listedTimes(tiny, 10, true), miniParts(), nestedParts()}
}

// nestedParts returns tinyParts with a page whose shape 1, a container,
// holds shape 2, which holds it in turn: a cycle of containers.
func nestedParts() []vsdxgen.Part {
	parts := tinyParts()
	parts[len(parts)-1].Data = []byte("<PageContents xmlns='" + visio.NamespaceVSDX + "'><Shapes>" +
		"<Shape ID='1'><Cell N='Relationships' F='SUM(DEPENDSON(1,Sheet.2!SheetRef()))'/><Text>a</Text></Shape>" +
		"<Shape ID='2'><Cell N='Relationships' F='SUM(DEPENDSON(1,Sheet.1!SheetRef()),DEPENDSON(4,Sheet.1!SheetRef()))'/></Shape>" +
		"<Shape ID='3'><Cell N='BeginX' V='0'/><Text>go</Text></Shape></Shapes><Connects><Connect FromSheet='3' FromCell='BeginX' ToSheet='1'/>" +
		"<Connect FromSheet='3' FromCell='EndX' ToSheet='2'/></Connects></PageContents>")
	return parts
}

// tinyParts returns the parts of a package of as few parts as a drawing
// needs, whose zip (packTiny) is of 2 KB: a page of two shapes and a
// connector.
func tinyParts() []vsdxgen.Part {
	const (
		rels = "<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/relationships'>"
		rel  = "<Relationship Type='http://schemas.microsoft.com/visio/2010/relationships/"
		v    = " xmlns='" + visio.NamespaceVSDX + "' xmlns:r='http://schemas.openxmlformats.org/officeDocument/2006/relationships'"
		ct   = "<Override ContentType='application/vnd.ms-visio."
	)
	return []vsdxgen.Part{
		{Name: "[Content_Types].xml", Data: []byte("<Types xmlns='http://schemas.openxmlformats.org/package/2006/content-types'>" +
			ct + "drawing.main+xml' PartName='/visio/document.xml'/>" + ct + "pages+xml' PartName='/visio/pages/pages.xml'/>" +
			ct + "page+xml' PartName='/visio/pages/page1.xml'/></Types>")},
		{Name: "_rels/.rels", Data: []byte(rels + rel + "document' Id='rId1' Target='visio/document.xml'/></Relationships>")},
		{Name: "visio/document.xml", Data: []byte("<VisioDocument" + v + "/>")},
		{Name: "visio/_rels/document.xml.rels", Data: []byte(rels + rel + "pages' Id='rId1' Target='pages/pages.xml'/></Relationships>")},
		{Name: "visio/pages/pages.xml", Data: []byte("<Pages" + v + "><Page ID='0'><Rel r:id='rId1'/></Page></Pages>")},
		{Name: "visio/pages/_rels/pages.xml.rels", Data: []byte(rels + rel + "page' Id='rId1' Target='page1.xml'/></Relationships>")},
		{Name: page1, Data: []byte("<PageContents" + v + "><Shapes><Shape ID='1'><Text>a</Text></Shape><Shape ID='2'/><Shape ID='3'><Cell N='BeginX' V='0'/>" +
			"<Text>go</Text></Shape></Shapes><Connects><Connect FromSheet='3' FromCell='BeginX' ToSheet='1'/><Connect FromSheet='3' FromCell='EndX' ToSheet='2'/>" +
			"</Connects></PageContents>")},
	}
}

// packTiny packs parts into a zip as small as it can be: no extra fields,
// no data descriptors (vsdxgen's zips have both). A part whose name starts
// with '~' is stored, without the '~', the others deflated.
func packTiny(parts []vsdxgen.Part) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, p := range parts {
		name, data, method := p.Name, p.Data, zip.Deflate
		if strings.HasPrefix(name, "~") {
			name, method = name[1:], zip.Store
		} else {
			var c bytes.Buffer
			fw, _ := flate.NewWriter(&c, flate.BestCompression)
			fw.Write(p.Data)
			fw.Close()
			data = c.Bytes()
		}
		fw, err := w.CreateRaw(&zip.FileHeader{Name: name, Method: method, CRC32: crc32.ChecksumIEEE(p.Data),
			CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(p.Data))})
		if err != nil {
			continue // a name the writer refuses
		}
		fw.Write(data)
	}
	w.Close()
	return b.Bytes()
}

// FuzzVSDXPart replaces one part of a small package (part%10 of
// miniParts: content types, relationships, document, masters, a master,
// pages, a page) with arbitrary XML, seeded from the part itself, then
// reads the package (stored, not compressed, to go faster); see
// FuzzReadVSDX for what it checks.
func FuzzVSDXPart(f *testing.F) {
	parts := miniParts()
	for i, p := range parts {
		f.Add(uint8(i), p.Data)
	}
	index := func(name string) uint8 {
		return uint8(slices.IndexFunc(parts, func(p vsdxgen.Part) bool { return p.Name == name }))
	}
	f.Add(index(page1),
		[]byte("<PageContents xmlns='"+visio.NamespaceVSDX+"'><Shapes><Shape ID='1' Type='Group'><Cell N='PinX' V='1e308'/><Cell N='Width' V='NaN'/>"+
			"<Cell N='Relationships' F='SUM(DEPENDSON(1,Sheet.2!SheetRef()),DEPENDSON(4,Sheet.1!SheetRef())'/><Shapes><Shape ID='2'/></Shapes></Shape></Shapes></PageContents>"))
	pages := index("visio/pages/pages.xml")
	f.Add(pages, listedTimes(parts, 10, false)[pages].Data)
	f.Add(index(page1), bytes.Replace(parts[index(page1)].Data, []byte("<Text>a"), []byte("<Text>a\x00&#1;\uFFFE"), 1))
	st := fuzzStencil(f)
	f.Fuzz(func(t *testing.T, part uint8, data []byte) {
		p := slices.Clone(parts)
		p[int(part)%len(p)].Data = data
		pkg := vsdxgen.Store(p)
		fuzzRead(t, pkg, st)
		checkDecodeWindow(t, pkg, fuzzOptions("w.vsdx", nil), len(data)%13+1)
	})
}

// hostileSeeds returns tiny files of each kind made to attack a reader
// (see hostileFiles for large ones; FuzzReadVSDX has its own, packages):
// control characters raw and as references, long names, binary files.
func hostileSeeds() [][]byte {
	const doc = "<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'>"
	long := strings.Repeat("n", 100)
	return [][]byte{
		[]byte(doc + "<Pages><Page Name='walk\x00Left'/></Pages></VisioDocument>"),
		[]byte(doc + "<Pages><Page Name='walk\x01Left'>&#x1B;\uFFFE<!-- \x07 --></Page></Pages></VisioDocument>"),
		[]byte(doc + "<Pages><" + long + "></Pages></VisioDocument>"),
		[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
		[]byte(doc + "<Pages>caf\xE9</Pages></VisioDocument>"),
		[]byte("\xFF\xFE<\x00a"),
	}
}

// TestMain bounds the time the fuzzer spends minimizing each input that
// reaches new code (see charttest.ShortMinimize): FuzzVSDXPart once ran
// out of its time while a worker minimized.
func TestMain(m *testing.M) {
	charttest.ShortMinimize()
	os.Exit(m.Run())
}
