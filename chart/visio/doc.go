// Package visio reads Microsoft Visio drawings into a [chart.Chart]: the
// state machines designers draw in Visio with a programmer's stencil (as in
// "Visual Finite State Machine AI Systems", Gamasutra, 2004), and the UML
// state diagrams people already have.
//
// It reads Visio XML drawings (.vdx) of Visio 2003 to 2010 (namespace
// http://schemas.microsoft.com/visio/2003/core) and Visio 2002 (namespace
// urn:schemas-microsoft-com:office:visio).
//
//	st, err := chart.LoadStencil("goomba.stencil.json")
//	...
//	c, err := visio.ReadFile("goomba.vdx", visio.Options{Stencil: st})
//
// # Two layers
//
// Reading is done in two steps, so that other Visio formats share the
// second:
//
//   - [DecodeVDX] parses a .vdx file into a [Document], a model of the
//     drawing that knows nothing of state machines: masters, pages, shapes
//     (group members included) with their ID, names, master, text, custom
//     properties (Prop rows: label, value, format and the drop-list it
//     holds) and whether they are 1-D, the page's Connects (which end of
//     which connector is glued to which shape), and positions.
//     [Document.Resolve] links each shape to the master it inherits from;
//     [Shape.Prop] then merges their custom properties cell by cell.
//   - [Interpret] reads a chart from a Document, with a stencil or
//     without.
//
// [Read] and [ReadFile] do both.
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
// tests; Value, Order and Stack are optional. The importer checks the
// drawing's masters against the stencil: a drawing that uses none of the
// stencil's masters was made with another stencil (an error); a master the
// stencil does not know is reported and its shapes ignored; a master whose
// drop-list differs from the stencil's was made with another version of the
// stencil (a warning).
//
// # Without a stencil
//
// A plain state diagram is read as people draw them: 2-D shapes at the top
// of the page are states named by their text (a shape inside a group is a
// state when a connector is glued to it; the members of a master's group
// are part of their group's picture); 1-D shapes are transitions, whose
// text is a UML label, "event [guard] / action", split into its parts.
// Start, end and choice pseudo-states are recognised by the words of their
// master's name: "start" or "initial", "end" or "final", "decision" or
// "choice" (Lucidchart's UMLStartBlock, Visio's Initial state, a flowchart's
// Decision). Background pages are left out; the states of the second and
// later pages take their page's ID as prefix ("4/36").
//
// # Glue
//
// A connector's ends are read from the page's Connects rows (FromSheet: the
// connector; FromCell: BeginX for its start, EndX for its end; ToSheet: the
// shape). An end glued to a member of a master's group is glued to the
// group. A transition whose end is glued to nothing enters the final state
// (the article: "any transition that ends with no state is considered to
// have entered a final state").
//
// # Diagnostics
//
// Problems are [chart.Diagnostic] values with the file, page, shape and
// line:column where they are. A drawing made with a stencil is a build
// asset and is read strictly: a transition whose start is glued to nothing,
// a Connect row that names a shape the page does not have, an unknown test
// or drop-list value are errors. A plain diagram is read leniently: what
// cannot be a transition is a warning and left out, connectors glued to no
// shape at all a note. Nothing the importer leaves out goes unreported.
//
// # Bad input
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotVisio], [ErrMalformed],
// [ErrTooDeep]): a file over Options.MaxSize (256 MiB by default); a file
// that is empty, binary, a zip ("probably a .vsdx"), a binary Visio file, an
// executable, or XML of another kind; malformed XML or invalid UTF-8 (with
// the line and column); groups nested deeper than Options.MaxDepth (100 by
// default). It reads UTF-8, with or without a byte-order mark, and UTF-16
// with one. A drawing without pages (a stencil, .vsx) is an error of
// Interpret.
//
// # Costs
//
// The whole file is read into memory. Parsing is done by a small scanner
// that checks that the XML is well-formed but allocates only for what it
// keeps (encoding/xml would allocate for every element of the drawing,
// mostly geometry and formatting): importing a drawing of 10,000 states and
// 40,000 transitions (59 MB) takes about 0.3 s on one core, four times less
// than encoding/xml takes only to tokenize it, and allocates 2.4 times the
// file's size (BenchmarkRead). A Document shares memory with the file's
// text; a Chart does not.
//
// The package holds no global state: calls may run concurrently. A
// Document is not safe for concurrent use until Resolve has run.
package visio
