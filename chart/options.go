package chart

import "strconv"

// ReadOptions says how to read a drawing. Every importer takes it (each
// importer's Options is this type), so that a program sets the stencil,
// the leniency and the limits once, whatever the format. The zero value
// reads a plain state diagram strictly, with the default limits.
//
// The limits keep a game or a build server alive whatever file it is
// given: each is counted where the bytes or the elements are produced
// (an inflated page, an expanded placeholder, a flattened transition),
// not only where the file is read, and going over one is an error that
// names it. The defaults are far above what real drawings need.
type ReadOptions struct {
	// File names the drawing in positions and messages, and names the
	// chart when the drawing does not. ReadFile sets it to the path when
	// it is empty.
	File string

	// Stencil is the stencil the drawing was made with: states,
	// transitions and message handlers are then recognised by the master
	// or the role property they carry, and read from the stencil's
	// properties. Nil (the default) reads a plain state diagram: shapes
	// are states named by their text, arrows are transitions labelled
	// "event [guard] / action".
	Stencil *Stencil

	// Lenient reads what a chart cannot hold yet as warnings, leaving it
	// out, rather than as errors: SCXML's executable content and data
	// models, and the other constructs each importer's documentation
	// lists. For drawing and converting files written for other tools;
	// a build wants the default, false, so that nothing the designer
	// drew is lost without an error.
	Lenient bool

	// RoleKey is the name of the custom property that says which master
	// of the stencil a shape stands for, in formats without masters: yEd's
	// custom properties and draw.io's Edit Data. "" means DefaultRoleKey.
	// Used only with a Stencil.
	RoleKey string

	// MaxSize is the largest file read, in bytes, and also the most that
	// its compressed content (a compressed page, a PNG's text chunk, a
	// gzip file) and its expanded text (draw.io's placeholders) may grow
	// to, all together; 0 means DefaultMaxSize.
	MaxSize int64

	// MaxDepth is how deeply states, groups or cells may nest; 0 means
	// DefaultMaxDepth. XML elements may nest a few times deeper, as each
	// format needs.
	MaxDepth int

	// MaxElements is the most elements an importer keeps: shapes, cells,
	// nodes and edges, states and transitions, and the other elements its
	// documentation counts; 0 means DefaultMaxElements.
	MaxElements int

	// MaxTransitions is the most transitions a chart may have (an
	// importer whose labels make several transitions of one arrow counts
	// them); 0 means DefaultMaxTransitions. [Flatten], which copies a
	// compound's transitions into each state inside it, takes the same
	// bound.
	MaxTransitions int

	// The limits of a drawing stored as a zip archive (a Visio .vsdx),
	// against archives made to exhaust the reader's memory: MaxParts is
	// how many files the archive may hold (0 means DefaultMaxParts);
	// MaxPartSize the largest part read, uncompressed (0 means
	// DefaultMaxPartSize); MaxUnpacked the most bytes unpacked in all,
	// every read of a part counted (0 means DefaultMaxUnpacked); MaxRatio
	// the highest ratio of a part's uncompressed size to its compressed
	// size, for parts over 1 MiB (0 means DefaultMaxRatio).
	MaxParts    int
	MaxPartSize int64
	MaxUnpacked int64
	MaxRatio    int
}

// Defaults of ReadOptions.
const (
	DefaultRoleKey        = "fsmforge"
	DefaultMaxSize        = 256 << 20 // 256 MiB
	DefaultMaxDepth       = 100
	DefaultMaxElements    = 1 << 20 // 1,048,576
	DefaultMaxTransitions = 1 << 20 // 1,048,576
	DefaultMaxParts       = 10000
	DefaultMaxPartSize    = 256 << 20 // 256 MiB, as a .vdx file
	DefaultMaxUnpacked    = 1 << 30   // 1 GiB
	DefaultMaxRatio       = 100       // Visio's own parts compress 4 to 8 times
)

// WithDefaults returns o with every zero limit replaced by its default,
// and RoleKey by DefaultRoleKey when empty. It panics when a limit is
// negative, a programming error.
func (o ReadOptions) WithDefaults() ReadOptions {
	if o.MaxSize < 0 || o.MaxDepth < 0 || o.MaxElements < 0 || o.MaxTransitions < 0 ||
		o.MaxParts < 0 || o.MaxPartSize < 0 || o.MaxUnpacked < 0 || o.MaxRatio < 0 {
		panic("chart: the limits of ReadOptions (MaxSize, MaxDepth, MaxElements, MaxTransitions, MaxParts, MaxPartSize, MaxUnpacked, MaxRatio) must not be negative (0 means the default)")
	}
	if o.RoleKey == "" {
		o.RoleKey = DefaultRoleKey
	}
	def(&o.MaxSize, DefaultMaxSize)
	def(&o.MaxDepth, DefaultMaxDepth)
	def(&o.MaxElements, DefaultMaxElements)
	def(&o.MaxTransitions, DefaultMaxTransitions)
	def(&o.MaxParts, DefaultMaxParts)
	def(&o.MaxPartSize, DefaultMaxPartSize)
	def(&o.MaxUnpacked, DefaultMaxUnpacked)
	def(&o.MaxRatio, DefaultMaxRatio)
	return o
}

func def[T int | int64](v *T, d T) {
	if *v == 0 {
		*v = d
	}
}

// LimitHint says how to raise the limit of ReadOptions named field, for
// the hint of an error about it: "the limit is ReadOptions.MaxSize
// (256 MiB by default); raise it if the drawing is really this large, or
// give fsmforge -max-size". It names the command-line flag too, since
// most such errors are met there.
func LimitHint(field string) string {
	flag, deflt := "", ""
	switch field {
	case "MaxSize":
		flag, deflt = "-max-size", "256 MiB"
	case "MaxDepth":
		flag, deflt = "-max-depth", strconv.Itoa(DefaultMaxDepth)
	case "MaxElements":
		flag, deflt = "-max-elements", strconv.Itoa(DefaultMaxElements)
	case "MaxTransitions":
		flag, deflt = "-max-transitions", strconv.Itoa(DefaultMaxTransitions)
	case "MaxParts":
		deflt = strconv.Itoa(DefaultMaxParts)
	case "MaxPartSize":
		deflt = "256 MiB"
	case "MaxUnpacked":
		deflt = "1 GiB"
	case "MaxRatio":
		deflt = strconv.Itoa(DefaultMaxRatio)
	}
	h := "the limit is ReadOptions." + field
	if deflt != "" {
		h += " (" + deflt + " by default)"
	}
	h += "; raise it if the drawing really is this large"
	if flag != "" {
		h += " (the command line's " + flag + " flag)"
	}
	return h
}
