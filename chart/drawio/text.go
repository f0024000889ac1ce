package drawio

import (
	"html"
	"strings"

	"github.com/fsmforge/fsmforge/internal/xmlscan"
)

// This file turns cells' labels into text and reads their styles.

// labelText returns the text a cell shows: its label (whose placeholders
// the decoder replaced, when its wrapper has placeholders="1") trimmed;
// HTML (when its style has html=1) is turned into text, each line
// trimmed.
func labelText(c *cell) string {
	v := c.value
	if h, _ := styleGet(c.style, "html"); h == "1" {
		return trimLines(htmlText(v))
	}
	return strings.TrimSpace(v)
}

// trimLines trims each line of s, then s.
func trimLines(s string) string {
	if !strings.Contains(s, "\n") {
		return strings.TrimSpace(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// placeholders replaces %name% in a label by the value of the cell's
// attribute name, as draw.io shows a label with placeholders="1". A
// placeholder that names no attribute is left as it is. It returns false
// when the label would grow longer than max bytes, before it does. Its
// time is linear in the label, the attributes and the result.
func placeholders(label string, c *cell, max int64) (string, bool) {
	if !strings.Contains(label, "%") {
		return label, true
	}
	// A label that names many attributes of a cell with many attributes
	// looks them up in an index.
	var index map[string]int
	if strings.Count(label, "%")*len(c.attrs) > 512 {
		index = make(map[string]int, len(c.attrs))
		for i := len(c.attrs) - 1; i >= 0; i-- { // the first one wins, as in get
			index[c.attrs[i].name] = i
		}
	}
	lookup := func(name string) (string, bool) {
		if index == nil {
			return c.get(name)
		}
		i, ok := index[name]
		if !ok {
			return "", false
		}
		return xmlscan.Unescape(c.attrs[i].raw), true
	}
	var b strings.Builder
	fits := func(n int) bool { return int64(b.Len())+int64(n) <= max }
	for {
		i := strings.IndexByte(label, '%')
		if i < 0 {
			break
		}
		j := strings.IndexByte(label[i+1:], '%')
		if j < 0 {
			break
		}
		name := label[i+1 : i+1+j]
		if v, ok := lookup(name); ok && name != "" {
			if !fits(i + len(v)) {
				return "", false
			}
			b.WriteString(label[:i])
			b.WriteString(v)
			label = label[i+1+j+1:]
			continue
		}
		if !fits(i + 1 + j) {
			return "", false
		}
		b.WriteString(label[:i+1+j])
		label = label[i+1+j:]
	}
	if !fits(len(label)) {
		return "", false
	}
	b.WriteString(label)
	return b.String(), true
}

// htmlText turns a label in HTML into the text it shows: tags removed,
// <br> and the ends of blocks (<div>, <p>, <li>...) made line breaks, runs
// of white space made single spaces, character references decoded, and
// the content of <script> and <style> dropped.
func htmlText(s string) string {
	if !strings.ContainsAny(s, "<&\n\r\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false // a space is pending
	lineStart := true
	newline := func(force bool) {
		if force || !lineStart {
			b.WriteByte('\n')
			lineStart = true
		}
		space = false
	}
	text := func(t string) {
		t = html.UnescapeString(t)
		for _, r := range t {
			switch r {
			case ' ', '\t', '\n', '\r', '\f':
				space = true
				continue
			case '\u00a0':
				r = ' '
			}
			if space && !lineStart {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			lineStart = false
		}
	}
	for i := 0; i < len(s); {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			text(s[i:])
			break
		}
		text(s[i : i+lt])
		i += lt
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		gt := strings.IndexByte(s[i:], '>')
		if gt < 0 { // no tag to the end
			text(s[i:])
			break
		}
		if !isTagStart(s[i+1:]) {
			text("<")
			i++
			continue
		}
		tag := s[i+1 : i+gt]
		i += gt + 1
		closing := strings.HasPrefix(tag, "/")
		name := strings.ToLower(strings.TrimLeft(tag, "/"))
		if k := strings.IndexAny(name, " \t\n\r/"); k >= 0 {
			name = name[:k]
		}
		switch name {
		case "br":
			newline(true)
		case "div", "p", "li", "tr", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr":
			newline(false)
		case "td", "th":
			if closing {
				space = true
			}
		case "script", "style":
			if !closing {
				i = closeTag(s, i, name)
			}
		}
	}
	return b.String()
}

// closeTag returns where the end tag </name> starts in s from i, in any
// case, or len(s).
func closeTag(s string, i int, name string) int {
	for {
		j := strings.Index(s[i:], "</")
		if j < 0 {
			return len(s)
		}
		i += j
		if rest := s[i+2:]; len(rest) >= len(name) && strings.EqualFold(rest[:len(name)], name) {
			return i
		}
		i += 2
	}
}

// isTagStart reports whether s (what follows a '<') starts a tag.
func isTagStart(s string) bool {
	s = strings.TrimPrefix(s, "/")
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// styleName returns the name of a style: its first entry when that has no
// '=' ("ellipse" in "ellipse;html=1"), or "".
func styleName(style string) string {
	first, _, _ := strings.Cut(style, ";")
	first = strings.TrimSpace(first)
	if strings.Contains(first, "=") {
		return ""
	}
	return first
}

// styleGet returns the value of key in a style ("key=value;..."); the
// last one wins, as in draw.io.
func styleGet(style, key string) (string, bool) {
	val, found := "", false
	for style != "" {
		var item string
		item, style, _ = strings.Cut(style, ";")
		k, v, ok := strings.Cut(item, "=")
		if ok && strings.TrimSpace(k) == key {
			val, found = strings.TrimSpace(v), true
		}
	}
	return val, found
}

// shapeOf returns what a style draws: its shape key, or its name.
func shapeOf(style string) string {
	if s, ok := styleGet(style, "shape"); ok && s != "" {
		return s
	}
	return styleName(style)
}

// isBlack reports whether a colour is black.
func isBlack(color string) bool {
	switch strings.ToLower(color) {
	case "#000000", "#000", "black", "#000000ff", "rgb(0,0,0)", "rgb(0, 0, 0)":
		return true
	}
	return false
}
