// Package visio reads Microsoft Visio drawings into a [chart.Chart]: the
// state machines designers draw in Visio with a programmer's stencil (as in
// "Visual Finite State Machine AI Systems", Gamasutra, 2004), and the UML
// state diagrams people already have.
//
// It reads Visio XML drawings (.vdx) of Visio 2003 to 2010 (namespace
// http://schemas.microsoft.com/visio/2003/core) and Visio 2002 (namespace
// urn:schemas-microsoft-com:office:visio), and the Visio packages of Visio
// 2013 and later: drawings (.vsdx, .vsdm), stencils (.vssx) and templates
// (.vstx). It writes Visio XML stencils (.vsx) for a stencil file.
//
//	st, err := chart.LoadStencil("goomba.stencil.json")
//	...
//	c, err := visio.ReadFile("goomba.vsdx", visio.Options{Stencil: st})
//
// # Two layers
//
// Reading is done in two steps, so that the formats share the second:
//
//   - [DecodeVDX] parses a .vdx file, [DecodeVSDX] a .vsdx package, into
//     a [Document], a model of the drawing that knows nothing of state
//     machines: the document's custom properties, masters, pages (their
//     size and their own Shape Data included), shapes (group members
//     included) with their ID, names, master, text, custom properties
//     (Shape Data rows: label, value, format and the drop-list it holds),
//     the cells that place them ([XForm]), whether they are 1-D, the
//     containers they belong to, the page's Connects (which end of which
//     connector is glued to which shape), and positions.
//     [Document.Resolve] links each shape to the master it inherits from,
//     and fills in the cells it does not set; [Shape.Prop] then merges
//     their custom properties cell by cell.
//   - [Interpret] reads a chart from a Document, with a stencil or
//     without.
//
// [Read] and [ReadFile] do both, and tell the formats apart by content: a
// zip is a package, anything else is read as a .vdx. (They hand each
// shape of a page to the interpretation as it is parsed, and keep no
// Document of the pages: see Costs.)
//
// # Visio packages
//
// A .vsdx is a zip of XML parts (Open Packaging Conventions). The reader
// follows the relationships, as Visio does, and never guesses a part's
// name: _rels/.rels leads to the document part, whose relationships lead
// to the pages part and the masters part; each <Page> and <Master> of
// those names its own part through a relationship. Each part must have
// the content type [Content_Types].xml gives its kind. In the parts, a
// shape's cells are <Cell N='PinX' V='4.25'/> elements, its Shape Data the
// rows of its <Section N='Property'>; an instance of a master writes only
// the cells and rows it changes, and inherits the rest cell by cell. Text
// keeps its characters and drops its formatting marks (cp, pp, tp) and
// fields' formulas (fld keeps its shown value); in both formats, CR LF, CR,
// and Visio's line breaks U+2028 and U+2029 become '\n'. The document's
// title comes from docProps/core.xml, its custom properties from
// docProps/custom.xml.
//
// # With a stencil
//
// Shapes are recognised by their master's universal name
// ([chart.Stencil.Role]; a suffix Visio adds to a copied master, "State.12",
// is ignored). A shape of the state or initial-state master is a state:
// named by its Name property (or else its text), its entry actions read from
// the stencil's action properties, whose values must be in the stencil's
// drop-lists. A shape of the transition master is a transition: its start
// must be glued to a state (or to a message-handler shape: the transition
// then applies in any state); its Test property names one of the stencil's
// tests; Value, Order, Stack and Final are optional (see Glue for Final:
// 1 or true when the transition's free end ends the machine on purpose; a
// master without the row is not warned about). The masters of statecharts,
// when the stencil names them, draw states too (see Composite states): a
// shape of the composite master is a composite state, and one of the
// parallel master a parallel state (chart.ParallelState), whose states are
// its regions, each named and given entry actions as a state is (by its
// Name property, or else its text or its heading's); one of the history
// or deep-history master is a history pseudo-state (chart.HistoryState,
// chart.DeepHistoryState), nameless (its text, "H" or "H*", is UML's
// notation); one of the start master is a start pseudo-state
// (chart.StartState, UML's initial state, marked Initial as in a plain
// diagram), nameless unless text is written on it, of the compound state
// that holds it or at the top. A transition whose start is glued to a
// history pseudo-state needs no test: it says where the history goes the
// first time, and package compile takes it without one; so does one
// glued to a start pseudo-state, which says where its compound state (or
// the machine) starts. Such a transition that keeps a test (the
// transition master may preset one: the masters [WriteStencil] writes
// pick the stencil's first test), known to the stencil or not, is read
// without it, with a warning that names the pseudo-state's kind and the
// test, and says to clear its Test in the connector's Shape Data (as
// chart/drawio and chart/graphml do). The importer checks the
// drawing's masters against the stencil: a drawing that uses none of the
// stencil's masters was made with another stencil (an error); a master the
// stencil does not know is reported and its shapes ignored, but for the
// Visio containers among them that are composite states (see Composite
// states); a master whose drop-list differs from the stencil's, or that
// has a Shape Data row the stencil does not list (its values left out),
// was made with another version of the stencil (a warning). Shapes drawn
// without a master, composite states aside, are not part of the chart (a
// note counts them: titles, comments); a connector drawn without one,
// glued to shapes, is a warning.
//
// # Without a stencil
//
// A plain state diagram is read as people draw them: 2-D shapes at the top
// of the page are states named by their text (a shape inside a group is a
// state when a connector is glued to it; the members of a master's group
// are part of their group's picture, and name it when it has no text of
// its own, as the states of Visio's UML stencil do); 1-D shapes are
// transitions, whose text is a UML label, "event [guard] / action", split
// into its parts. A container no connector is glued to is a frame, not a
// state, unless its master's name says it is a composite state (see
// Composite states). What a state's shape says besides its name is left out with a
// warning: the lines of its text from the first after the first that
// holds a '/' (UML's "entry / action" below the name), and the texts of
// the other members of its master's picture (the behaviour compartment of
// the UML stencil's "State with internal behavior").
// Start, end, choice and history pseudo-states are recognised by the words
// of their master's name: "start" or "initial", "end" or "final",
// "decision" or "choice", "history" (Lucidchart's UMLStartBlock, Visio's
// Initial state, a flowchart's Decision, the UML stencil's Shallow history;
// see Composite states). Background pages are left out; the states of the
// second and later pages take their page's ID as prefix ("4/36").
//
// # Composite states
//
// A state drawn inside another is inside it in the chart (State.Parent),
// as Visio draws it: inside the nearest group around it that is a state,
// or inside a container that is a state and holds it (or holds a group
// around it). Containers (Visio 2010 and later) are told by the
// Relationships cell: DEPENDSON(1, ...) on a container lists its members,
// DEPENDSON(4, ...) on a shape the containers it is a member of; either
// side is enough. Of several containers that hold a shape (Visio lists
// each container a shape is in, nested or not), the innermost, the one
// of the smallest box, is its parent. A shape only drawn over another is
// not inside it: Visio moves neither with the other. The chart keeps its
// composite states, in document order, and is never flattened (see
// [chart.Flatten] for those who want it flat); package compile runs a
// chart whose states nest as a statechart.
//
// Visio's UML State Machine stencil (Visio 2013 and later) draws a
// composite state ("Composite state") as a container whose name is written
// in its heading, a member of its group: the heading's text names the
// state; the states, pseudo-states and connectors dropped into it are its
// members. In a plain diagram, a container is a state when a connector is
// glued to it, or when its master's name says "composite" (or "region":
// see below) even when none is; any other container is a frame around
// states.
//
// Inside a composite state, a start pseudo-state (UML's initial state, the
// filled circle; with a stencil, a shape of the start master) starts it:
// its one transition goes to the state the composite starts in; a state
// marked initial does so too (with a stencil, a state of the
// initial-state master: the machine starts in it when nothing says
// otherwise, so that each composite around it is marked initial as well,
// up to a level that marks its own initial state or has a start; a
// parallel state's region is not marked, the parallel state is). An end
// pseudo-state (UML's final state, the bull's-eye) is the composite's
// final state: entering it completes the composite, which then takes its
// transitions drawn without a label (UML's completion transitions; see
// package compile). A shape whose master's name says
// "history" is a history pseudo-state (chart.HistoryState), deep
// (chart.DeepHistoryState) when the name also says "deep" or its text is
// "H*" (the text "H" or "H*" is UML's notation, not a name): a transition
// into it enters the state of its composite that was active when the
// composite was last left (for a deep one, every state below it), and its
// one transition leaving it says where to go the first time. A composite
// state that a transition enters but that has no initial state is a
// warning: package compile then enters the first of its states in the
// file, which the drawing does not show. (A parallel state, which enters
// every region, needs none.)
//
// In a plain diagram, the reader reads no parallel regions: none of the
// Visio drawings it was tested on draws orthogonal regions, so that how
// Visio's UML stencil stores them (separator lines, region shapes) is not
// known. A shape whose master's name says "orthogonal", "concurrent" or
// "parallel", a fork and a join are errors that name the shape, which is
// left out; so is a shape whose master's name says "region" drawn inside a
// state (the states in it are read inside the state around it).
//
// With a stencil, states nest in the same ways. A composite state is a
// shape of the stencil's composite master ([chart.Masters].Composite, a
// container; a state even when no transition is glued to it), a shape of
// its state master that is a container or a group holding states, or a
// Visio container of no master of the stencil (drawn with Insert,
// Container, or with a container master such as "Container 1"), named by
// its text or its heading's, that a transition is glued to. Such a
// container that no transition is glued to is a frame, and its master is
// reported as not in the stencil. A shape of the parallel master
// (Masters.Parallel, a container) is a parallel state: each state drawn
// inside it, a composite state or a single state, is a region, and the
// regions are active together. The history and deep-history masters'
// shapes are history pseudo-states of the composite state (or region)
// that holds them; one drawn at the top is read there, and package compile
// refuses it. A shape of the initial-state master marks the state the
// machine starts in, and so each compound state around it, up to a level
// that says where it starts (a state of the initial-state master or a
// start among the compound's siblings), but for the regions of a parallel
// state: entering the parallel state enters each region, at its state of
// the initial-state master if it has one, so that the parallel state is
// marked instead (a region of the initial-state master is not marked
// either; when its parallel state is not marked, its level starting
// elsewhere, the region's master says nothing: a warning). A shape of
// the start master (Masters.Start) says where the
// compound state that holds it starts, or at the top where the machine
// does: it is how a compound state the machine does not start in says
// where it starts. A compound state that holds neither a state of the
// initial-state master nor a start is entered at its first state in the
// file (a warning when a transition enters it: see above). What package
// compile checks of starts, the reader leaves to it: two starts in one
// compound state, a start and a state of the initial-state master side by
// side, a start without its one transition, a start in a parallel state.
//
// What cannot be read as drawn is reported: a state drawn inside itself,
// through groups or containers that hold each other (a damaged file), is an
// error, and is read at the top level; a state drawn inside a start, end,
// choice or history pseudo-state, which holds no states, is a warning, and
// is read outside it.
//
// # Layout
//
// Each state's Box is where its shape is drawn: its PinX, PinY, Width,
// Height, LocPinX and LocPinY (inches, Y upwards, from the page's
// bottom-left corner; a group's members from the group's), made pixels of
// 1/96 inch from the page's top-left corner with the page's height. A
// rotated shape gets its unrotated box; a page whose height the file does
// not give, or a shape whose cells are missing, none.
//
// # Glue
//
// A connector's ends are read from the page's Connects rows (FromSheet: the
// connector; FromCell: BeginX for its start, EndX for its end; ToSheet: the
// shape). An end glued to a member of a master's group is glued to the
// group. Only glued ends connect, as in Visio, which moves only glued ends
// with their shapes.
//
// A transition whose end is glued to nothing enters the final state (the
// article: "any transition that ends with no state is considered to have
// entered a final state"): the machine ends there. Since a connector's end
// also comes loose by mistake, a warning says so, unless the drawing
// marks the end as meant: with a stencil, the transition's Final property
// ([chart.Properties]; "Final" by default) is 1 or true (the masters
// [WriteStencil] writes have the row, false); in a plain diagram, its
// Shape Data row [PropFinal] ("fsmforgeFinal", as chart/drawio names it)
// is 1 or true; or the connector's end is glued to an end shape (a UML
// final state), which makes it a transition into that end pseudo-state.
// A returning transition (Stack = return) ends loose by design, and is
// not warned about. A transition marked final whose end is glued to a
// state other than an end shape, or that returns, is an error.
//
// A free end that lies on a state (within 1/16 inch of its box) was
// probably meant to be glued to it: the messages say so. A connector of a
// plain diagram glued to no shape at all is not a transition: if its
// start lies on a state, it was drawn as one, and it is an error; else it
// is left out, with a warning when it has a text, with a note when it has
// none (a bare line). A connector whose start is glued to no state
// is left out: an error with a stencil, or when its start lies on a
// state; else a warning.
//
// # Chaining
//
// The chart's Chain and ChainLimit ([chart.Chart]) come from the
// document's custom properties (in Visio: File > Info > Properties >
// Advanced > Custom; a .vdx's <DocumentProperties><CustomProps>, a
// package's docProps/custom.xml): [PropChain] ("fsmforgeChain": 1, true
// or yes; 0, false or no) and [PropChainLimit] ("fsmforgeChainLimit": a
// whole number from 0 to 65535, 0 for the number of states); names are
// matched regardless of case. When the document has neither, they come
// from the Shape Data rows of the first page (not a background page) that
// has either: the page's own Shape Data, in its page sheet. A value that
// cannot be read is a warning, and left out.
//
// # Fallback
//
// The chart's Fallback, the name of the state where a running game sends
// the agents of a state that a new version of the drawing no longer has
// (package reload), comes from the same places, found the same way, on
// its own: the document's custom property [PropFallback]
// ("fsmforgeFallback"), or else the Shape Data row of that name of the
// first page that has one. Its white space is made single spaces, as in
// a state's name; empty, or absent, means the initial state. A name of
// no state is not the reader's error: package compile warns about it.
//
// # Writing stencils
//
// [WriteStencil] writes the Visio stencil (.vsx) a stencil file describes:
// one master per part, named as the stencil names them, whose Shape Data
// rows hold its drop-lists of tests and action values, and the
// transition's Final row. When the stencil names the masters of
// statecharts, it writes them too: the composite and the parallel state as
// Visio containers (a User row msvStructureType = "Container"), with a
// state's Shape Data rows and the name written in a band at the top; the
// history and the deep history as small circles saying "H" and "H*"; the
// start as a smaller circle filled black, without Shape Data or text. Visio
// 2010 and later make the shapes dropped into a container its members, and
// record them in the Relationships cells the reader reads (see Composite
// states); earlier versions draw the container but record no members.
// Drawings made with it read back with the stencil without a warning. Its
// transition master picks the stencil's first test: clear the test of the
// transition leaving a start or a history, which is taken without one
// (the reader ignores one left on it, with a warning).
//
// # Diagnostics
//
// Problems are [diag.Diagnostic] values with the file, page, shape and
// line:column where they are. A drawing is read with the meaning Visio
// gives it, or refused with an error that names the shape; what the
// reader leaves out or reads otherwise is at least a warning that names
// it, but for what is only decoration, a note: a background page, the
// shapes drawn without a master in a drawing made with a stencil, a
// connector without text glued to nothing. A drawing made with a stencil is a
// build asset and is read strictly: a transition whose start is glued to
// nothing, an end glued to a shape the page does not have, an unknown test
// (but on a start's or a history's transition, which is taken without
// one: a warning) or drop-list value are errors. A plain diagram is read leniently: what
// cannot be a transition is a warning and left out, but for what was
// drawn as one and cannot be read as drawn (see Glue), the parallel
// regions it does not read and the states drawn inside themselves (see
// Composite states), which are errors.
//
// # Bad input
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotVisio], [ErrMalformed],
// [ErrTooDeep], [ErrZip], [ErrUnsafe]): a file over Options.MaxSize (256
// MiB by default); a file that is empty, binary (with the byte offset of
// the NUL byte or the byte that is not UTF-8 that says so), a binary Visio
// file, an executable, or XML of another kind; malformed XML or invalid
// UTF-8 (with the line and column, and for a package the part:
// "car.vsdx!visio/pages/page1.xml:2:182"; invalid UTF-8 with its byte and
// offset too); groups nested deeper than Options.MaxDepth (100 by
// default); more elements than Options.MaxElements (1,048,576 by default,
// [ErrTooLarge]), counted as they are read: the shapes of the pages and
// masters, group members included, their Shape Data rows and the page
// sheets', the Connect rows, pages, masters, the shapes the Relationships
// cells name, the document's custom properties and a package's content
// types, all together. (A file of 8 MB holds a million empty <Shape/>
// elements.) It reads UTF-8, with or without a byte-order mark, and UTF-16
// with one. A drawing without pages (a stencil, .vsx or .vssx) is an error
// of Interpret.
//
// As every XML reader must, and as encoding/xml (the SCXML and GraphML
// readers') does, it refuses the characters XML 1.0 does not allow, raw or
// as character references, wherever they are: the control characters but
// tab, line feed and carriage return (a NUL byte among them), U+FFFE,
// U+FFFF and (as references) surrogates: "visio: malformed XML: character
// U+0000 (a NUL byte) is not allowed in XML: the file is damaged or was not
// written by an XML tool", at its line and column. (encoding/xml lets them
// through in comments and processing instructions, and reads &#xD800; as
// U+FFFD.) No such character reaches a chart.
//
// A message quotes no more than 64 bytes of a name, an ID or a text of the
// file, and a position no more than 128 bytes of a page's name, a shape's
// ID or a part's name (a shape's name is shortened by [diag.Pos]): a file
// may hold names of a megabyte. Of each kind of problem, the first 100 are
// listed, and one more diagnostic, at the first of the others, says how
// many others there are.
//
// A package is refused when its zip is damaged or truncated, or a part
// fails its checksum ([ErrZip]); when it is a zip but not an Office
// document, or an Office document of another kind such as a .docx
// ([ErrNotVisio]); when it lacks a part, a relationship or the content type
// the package needs ([ErrZip]). Against archives made to attack it: the
// archive may hold Options.MaxParts files (10,000), checked before its
// directory is read, and a part may list as many pages, masters or
// relationships; each part read may unpack to Options.MaxPartSize (256
// MiB) and all of them to Options.MaxUnpacked (1 GiB) ([ErrTooLarge]); a
// part over 1 MiB may unpack to no more than Options.MaxRatio (100) times
// its compressed size, and all the parts read to no more than MaxRatio
// times the file's size, or 1 MiB if that is more ([ErrUnsafe]: a zip
// bomb; Visio's parts compress 4 to 8 times). Each read of a part counts:
// two pages may share a part, but a package of 85 KB that lists a page
// part of 1 MB two thousand times is refused once its reads come to 100
// times its size, in 40 ms rather than after reading 2 GB. Sizes are
// checked as the headers declare them, then as the data unpacks, whatever
// the headers say. A name that could lead outside the archive (absolute,
// "..", a drive letter, a backslash: a zip slip) is refused too
// ([ErrUnsafe]), although names are only looked up in the archive and
// nothing is written to disk.
//
// # Costs
//
// Parsing is done by a small scanner that checks that the XML is
// well-formed but allocates only for what it keeps (encoding/xml would
// allocate for every element of the drawing, mostly geometry and
// formatting). It looks for the characters XML does not allow in one more
// pass over the text, at about 3.8 GB/s (internal/xmlscan's
// BenchmarkIllegalAt), some 7% of the time a .vdx takes. A .vdx is read
// into memory whole, and the strings the reader keeps of it share memory
// with the file's text. A package's parts are each unpacked as they are
// parsed, 64 KiB of text at a time (a UTF-16 part whole), and the parser
// copies out the strings it keeps: neither the file nor the parts' text
// stay in memory.
// A Chart shares memory with neither.
//
// The interpretation reads each shape of a page once, into a record of
// what it needs of it (64 bytes; for a state, its name, box and entry
// actions, 40 bytes and 16 an action; for a transition, its test, value,
// order and stack operation, 16 bytes, and where its ends are, 16), and
// builds the chart from the records once it has the whole page: the glue
// comes after the shapes. [Read] builds no Document of the pages, of
// either format: the parser hands each top-level shape, once read with
// its members and resolved, to the interpretation, then reuses its memory
// for the next, and each Connect row as it comes; a Document keeps the
// masters, which come before the pages. [Interpret] reads the records
// from a Document. So Read holds, besides the file's text (of a .vdx), 64
// bytes and up for each shape, and Options.MaxElements bounds the shapes:
// a .vdx of 32 MiB holding 4 million empty <Shape/> elements is refused at
// the 1,048,577th, with 150 MB of heap at the peak (4.5 times the file;
// read whole, past the limit, it would take 385 MB).
//
// Measured with
//
//	go test -run xxx -bench 'ReadVSDX|Read$' -benchmem -count 5 ./chart/visio
//
// (on a shared 2-core AMD EPYC, medians of 5; alloc/file is the bytes
// allocated per byte of the file, peak/file the most heap memory in use
// during an import, live or not yet collected, per byte of the file):
//
//   - A .vdx of 10,000 states and 40,000 transitions, 59 MB
//     (BenchmarkRead): 0.22 s on one core, 275 MB/s, a quarter of what
//     encoding/xml takes only to tokenize it; alloc/file 1.4, peak/file
//     1.4 (the file's text held is one of them).
//   - A .vsdx of 12,000 states and 48,000 transitions, 5 MB, whose parts
//     unpack to 78 MB (16 times; Visio's own parts compress 4 to 8 times)
//     (BenchmarkReadVSDX): 0.41 s, 12 MB/s of file or 190 MB/s of XML;
//     alloc/file 21, peak/file 5.5 (27 MB).
//
// Of a package's 21 bytes allocated per byte of the file, 16 are its XML,
// each byte copied once into the scanner's windows (a string's memory
// cannot be reused). Its memory in use is bounded by the drawing's shapes
// and glue, not by its XML: at the peak, while the chart is built, the
// records of this file hold 1.6 bytes per byte of the file and the chart
// 3.4 (a transition takes 256 bytes). The XML's garbage is collected as
// the parser goes (with the default GOGC, the heap grows to about twice
// what is live before a collection); the chart's largest allocation, the
// array of its transitions, is made last, when the collection of that
// garbage is usually under way.
//
// The package holds no global state: calls may run concurrently. A
// Document is not safe for concurrent use until Resolve has run.
package visio
