package chart

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzReadJSON checks that ReadJSON never panics, that each error renders,
// and that what it reads writes back and reads again unchanged.
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a","states":[{"id":"1","name":"x","kind":"normal","initial":true,"pos":{}}],"transitions":[{"id":"2","from":"1","order":1,"target":{"kind":"final"},"pos":{}}]}`))
	f.Add([]byte(`{"states":[],"stencil":{"name":"s","masters":{"state":"S","transition":"T"},"tests":[{"name":"t"}]}}`))
	f.Add([]byte(`{"states":[{"id":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadJSON(bytes.NewReader(data), "f.json")
		if err != nil {
			if c != nil || err.Error() == "" {
				t.Fatalf("ReadJSON: chart %v, error %q", c, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, c); err != nil {
			t.Fatalf("WriteJSON: %v", err)
		}
		if _, err := ReadJSON(&buf, "f.json"); err != nil {
			t.Fatalf("ReadJSON(WriteJSON(c)): %v\n%s", err, buf.String())
		}
	})
}

// FuzzReadStencil checks that ReadStencil never panics, that each error
// renders, and that a stencil it accepts validates.
func FuzzReadStencil(f *testing.F) {
	if data, err := os.ReadFile("../examples/goomba/goomba.stencil.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"name":"s","masters":{"state":"S","transition":"T"},"tests":[{"name":"t","values":["a;b"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadStencil(bytes.NewReader(data), "s.json")
		if err != nil {
			if s != nil || strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("ReadStencil: stencil %v, error %q", s, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Validate of an accepted stencil: %v", err)
		}
	})
}
