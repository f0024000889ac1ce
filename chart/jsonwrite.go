package chart

import (
	"encoding"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// WriteJSON writes c as indented JSON, the chart's own file format (what
// "fsmforge convert" writes for a .json output): every field of the chart,
// its stencil and its diagnostics, in a stable order. ReadJSON reads it
// back. The output is that of json.MarshalIndent(c, "", "  ") followed by
// a newline, byte for byte.
//
// WriteJSON streams: it encodes the chart element by element, and a long
// string piece by piece, into a buffer of 64 KiB that it writes to w
// whenever it fills, so that it holds little memory beyond the chart
// whatever the chart's size; it costs time linear in the output. A chart
// holding what JSON cannot encode (a kind, target kind or severity out of
// range, a box coordinate that is not a finite number) is an error, found
// before anything is written. An error of w stops the writing, with part
// of the chart written. A nil chart is written as null.
func WriteJSON(w io.Writer, c *Chart) error {
	if c == nil {
		_, err := io.WriteString(w, "null\n")
		return err
	}
	if err := checkWritable(c); err != nil {
		return err
	}
	e := &jsonWriter{w: w, b: make([]byte, 0, jsonChunk+512)}
	e.value(reflect.ValueOf(c).Elem())
	e.b = append(e.b, '\n')
	e.flush()
	return e.err
}

// checkWritable finds what WriteJSON cannot encode.
func checkWritable(c *Chart) error {
	bad := func(what, id string, err error) error {
		return fmt.Errorf("chart: cannot write %s %q: %w", what, id, err)
	}
	for i := range c.States {
		s := &c.States[i]
		if _, err := s.Kind.MarshalText(); err != nil {
			return bad("state", s.ID, err)
		}
		if b := s.Box; b != nil && !finite(b.X, b.Y, b.W, b.H) {
			return bad("state", s.ID, fmt.Errorf("its box %v is not finite", *b))
		}
	}
	for i := range c.Transitions {
		if _, err := c.Transitions[i].Target.Kind.MarshalText(); err != nil {
			return bad("transition", c.Transitions[i].ID, err)
		}
	}
	for i := range c.Diagnostics {
		if _, err := c.Diagnostics[i].Severity.MarshalText(); err != nil {
			return bad("diagnostic", c.Diagnostics[i].Message, err)
		}
	}
	return nil
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// jsonChunk is how much WriteJSON buffers before writing.
const jsonChunk = 64 << 10

// jsonWriter writes a value as json.MarshalIndent(v, "", "  ") does,
// through a buffer it writes out whenever it holds jsonChunk bytes.
type jsonWriter struct {
	w     io.Writer
	b     []byte
	depth int
	err   error
}

func (e *jsonWriter) flush() {
	if e.err == nil && len(e.b) > 0 {
		_, e.err = e.w.Write(e.b)
	}
	e.b = e.b[:0]
}

func (e *jsonWriter) flushFull() {
	if len(e.b) >= jsonChunk {
		e.flush()
	}
}

// jsonList is an object or an array being written.
type jsonList struct {
	e     *jsonWriter
	n     int  // members or elements written
	close byte // '}' or ']'
}

func (e *jsonWriter) open(c byte) jsonList {
	e.b = append(e.b, c)
	e.depth++
	return jsonList{e: e, close: c + 2} // '{'+2 is '}', '['+2 is ']'
}

// next starts a member or an element.
func (l *jsonList) next() {
	e := l.e
	if l.n > 0 {
		e.b = append(e.b, ',')
	}
	l.n++
	e.newline()
	e.flushFull()
}

// key starts a member: its key, which needs no escaping.
func (l *jsonList) key(k string) {
	l.next()
	e := l.e
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':', ' ')
}

func (l *jsonList) end() {
	e := l.e
	e.depth--
	if l.n > 0 {
		e.newline()
	}
	e.b = append(e.b, l.close)
}

func (e *jsonWriter) newline() {
	e.b = append(e.b, '\n')
	for range e.depth {
		e.b = append(e.b, ' ', ' ')
	}
}

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()

// value writes v as encoding/json would, for the kinds of value a chart
// holds: strings, booleans, numbers, structs (without embedded fields),
// pointers, slices, and values that marshal themselves as text.
func (e *jsonWriter) value(v reflect.Value) {
	if e.err != nil {
		return
	}
	t := v.Type()
	switch {
	case t.Kind() == reflect.Pointer && v.IsNil(), t.Kind() == reflect.Interface && v.IsNil():
		e.b = append(e.b, "null"...)
		return
	case t.Implements(textMarshalerType):
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			e.err = err
			return
		}
		e.str(string(b))
		return
	}
	switch t.Kind() {
	case reflect.String:
		e.str(v.String())
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.Float64, reflect.Float32:
		e.float(v.Float(), t.Bits())
	case reflect.Pointer, reflect.Interface:
		e.value(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return
		}
		l := e.open('[')
		for i := range v.Len() {
			l.next()
			e.value(v.Index(i))
		}
		l.end()
	case reflect.Struct:
		o := e.open('{')
		for _, f := range jsonFields(t) {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmptyValue(fv) || f.omitZero && fv.IsZero() {
				continue
			}
			o.key(f.name)
			e.value(fv)
		}
		o.end()
	default:
		e.err = fmt.Errorf("chart: WriteJSON cannot write a %s", t)
	}
}

// jsonField is a field of a struct as encoding/json writes it.
type jsonField struct {
	name                string
	index               int
	omitEmpty, omitZero bool
}

var jsonFieldCache sync.Map // reflect.Type -> []jsonField

// jsonFields lists the fields of a struct type that encoding/json writes,
// with their names and options: the exported fields, but those tagged
// "-". (A chart's structs embed none.)
func jsonFields(t reflect.Type) []jsonField {
	if fs, ok := jsonFieldCache.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		f := jsonField{name: name, index: i}
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			f.omitEmpty = f.omitEmpty || o == "omitempty"
			f.omitZero = f.omitZero || o == "omitzero"
		}
		fs = append(fs, f)
	}
	jsonFieldCache.Store(t, fs)
	return fs
}

// isEmptyValue is encoding/json's test for omitempty.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// float writes f as encoding/json does.
func (e *jsonWriter) float(f float64, bits int) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.err = fmt.Errorf("chart: WriteJSON cannot write %v", f)
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(e.b); n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
}

// jsonSafe[c] is true for the ASCII bytes encoding/json writes as they
// are in a string (with HTML escaping, its default).
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		safe[c] = !strings.ContainsRune(`"\<>&`, c)
	}
	return
}()

const hexDigits = "0123456789abcdef"

// str writes s quoted as encoding/json does (HTML characters, U+2028 and
// U+2029 escaped, invalid UTF-8 replaced), writing out the buffer as it
// fills.
func (e *jsonWriter) str(s string) {
	e.b = append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i-start >= jsonChunk {
			e.b = append(e.b, s[start:i]...)
			start = i
			e.flushFull()
		}
		c, size := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		if !needsEscape(c, size) {
			i += size
			continue
		}
		e.b = append(e.b, s[start:i]...)
		e.b = appendEscape(e.b, c)
		i += size
		start = i
		e.flushFull()
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
	e.flushFull()
}

// needsEscape reports whether encoding/json escapes the character c, of
// size bytes, in a string: an ASCII byte not jsonSafe, a byte of invalid
// UTF-8 (c is utf8.RuneError, of 1 byte), U+2028 or U+2029.
func needsEscape(c rune, size int) bool {
	if c < utf8.RuneSelf {
		return !jsonSafe[c]
	}
	return c == utf8.RuneError && size == 1 || c == '\u2028' || c == '\u2029'
}

// appendEscape appends the escape of c, a character needsEscape takes.
func appendEscape(b []byte, c rune) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', byte(c))
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	case utf8.RuneError:
		return append(b, `\ufffd`...)
	case '\u2028', '\u2029':
		return append(b, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
