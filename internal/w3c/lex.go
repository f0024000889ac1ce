package w3c

// attrSpan is where an attribute is in a start tag: the white space
// before it starts at space, its name at name, and it ends after its
// closing quote, at end.
type attrSpan struct{ space, name, end int }

func (s *attrSpan) shift(off int) {
	s.space += off
	s.name += off
	s.end += off
}

// lexAttrs returns the spans of the attributes of tag, a start tag that
// encoding/xml read ("<a x='1' y = \"2\"/>"), in the order they are
// written; false if tag is not one.
func lexAttrs(tag []byte) ([]attrSpan, bool) {
	if len(tag) < 2 || tag[0] != '<' {
		return nil, false
	}
	i := 1
	for i < len(tag) && !isSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
		i++
	}
	var spans []attrSpan
	for {
		space := i
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) {
			return nil, false
		}
		if tag[i] == '/' || tag[i] == '>' {
			return spans, true
		}
		name := i
		for i < len(tag) && !isSpace(tag[i]) && tag[i] != '=' {
			i++
		}
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] != '=' {
			return nil, false
		}
		i++
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] != '"' && tag[i] != '\'' {
			return nil, false
		}
		q := tag[i]
		i++
		for i < len(tag) && tag[i] != q {
			i++
		}
		if i >= len(tag) {
			return nil, false
		}
		i++
		spans = append(spans, attrSpan{space: space, name: name, end: i})
	}
}

// isSpace reports whether b is XML white space.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
