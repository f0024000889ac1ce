package diag_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

var errSentinel = errors.New("sentinel")

func TestDiagnostics(t *testing.T) {
	at := diag.Pos{File: "g.vdx", Line: 3, Col: 4, Page: "Page-1", Shape: "7"}
	warn := diag.Diagnostic{Pos: at, Severity: diag.Warning, Message: "visio: odd"}
	note := diag.Diagnostic{Severity: diag.Note, Message: "visio: fyi"}
	err1 := diag.Diagnostic{Pos: at, Message: "visio: bad", Hint: "fix it", Err: errSentinel}
	err2 := diag.Diagnostic{Message: "visio: worse"}

	for _, tt := range []struct {
		name string
		l    diag.List
		want string
		errs int
	}{
		{"empty", nil, "diag: no diagnostics", 0},
		{"warnings only", diag.List{warn, note}, `g.vdx:3:4: page "Page-1", shape 7: warning: visio: odd`, 0},
		{"one error", diag.List{warn, err1}, `g.vdx:3:4: page "Page-1", shape 7: visio: bad`, 1},
		{"errors", diag.List{warn, err1, note, err2, err2}, `g.vdx:3:4: page "Page-1", shape 7: visio: bad (and 2 more)`, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if got := len(tt.l.Errors()); got != tt.errs {
				t.Errorf("len(Errors()) = %d, want %d", got, tt.errs)
			}
			if got := len(tt.l.Warnings()); got != len(tt.l)-tt.errs {
				t.Errorf("len(Warnings()) = %d, want %d", got, len(tt.l)-tt.errs)
			}
			if got := tt.l.HasErrors(); got != (tt.errs > 0) {
				t.Errorf("HasErrors() = %v, want %v", got, tt.errs > 0)
			}
			err := tt.l.Err()
			if (err != nil) != (tt.errs > 0) {
				t.Fatalf("Err() = %v, want an error: %v", err, tt.errs > 0)
			}
			if err != nil {
				var l diag.List
				if !errors.As(err, &l) || len(l) != tt.errs || l.HasErrors() != true || len(l.Warnings()) != 0 {
					t.Errorf("Err() = %#v, want the %d errors alone", err, tt.errs)
				}
				if !errors.Is(err, errSentinel) {
					t.Errorf("errors.Is(Err(), sentinel) = false")
				}
			}
		})
	}
	if got := note.Error(); got != "note: visio: fyi" {
		t.Errorf("note.Error() = %q", got)
	}
}

func TestPosString(t *testing.T) {
	for _, tt := range []struct {
		pos  diag.Pos
		want string
	}{
		{diag.Pos{}, ""},
		{diag.Pos{File: "goomba.vdx", Page: "Page-1", Shape: "12", ShapeName: "walkLeft", Line: 41, Col: 7}, `goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"`},
		{diag.Pos{File: "goomba.vdx", Line: 41}, "goomba.vdx:41"},
		{diag.Pos{File: "goomba.vdx"}, "goomba.vdx"},
		{diag.Pos{Line: 3, Col: 5}, "3:5"},
		{diag.Pos{Page: "Page-1", Shape: "12"}, `page "Page-1", shape 12`},
		{diag.Pos{File: "x.vdx", Shape: "12"}, "x.vdx: shape 12"},
		{diag.Pos{File: "x.vdx", Line: 2, Col: 1, ShapeName: "State"}, `x.vdx:2:1: "State"`},
		{diag.Pos{Page: "Flow \"1\"", ShapeName: "Retorna ao usuário"}, `page "Flow \"1\"", "Retorna ao usuário"`},
		{diag.Pos{Shape: "16", ShapeName: "Pergunta ao usuário se prefere receitas conforme o filtro"}, `shape 16 "Pergunta ao usuário se prefere receit..."`},
	} {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.pos, got, tt.want)
		}
		if got := tt.pos.IsZero(); got != (tt.pos == diag.Pos{}) {
			t.Errorf("%#v.IsZero() = %v", tt.pos, got)
		}
	}
}

func TestSeverity(t *testing.T) {
	for _, tt := range []struct {
		s    diag.Severity
		want string
	}{{diag.Error, "error"}, {diag.Warning, "warning"}, {diag.Note, "note"}, {diag.Severity(7), "Severity(7)"}} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%d.String() = %q, want %q", tt.s, got, tt.want)
		}
		var back diag.Severity
		b, err := tt.s.MarshalText()
		if tt.s > diag.Note {
			if err == nil {
				t.Errorf("%d.MarshalText() = %q, want an error", tt.s, b)
			}
			continue
		}
		if err != nil || back.UnmarshalText(b) != nil || back != tt.s {
			t.Errorf("%v: MarshalText, UnmarshalText = %v, %v, %v", tt.s, err, back.UnmarshalText(b), back)
		}
	}
	var s diag.Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Errorf("UnmarshalText(fatal) = nil, want an error")
	}
}

func TestAdd(t *testing.T) {
	var l diag.List
	for i := range 3 * diag.Max {
		l.Add(diag.Diagnostic{Message: fmt.Sprint("x: problem ", i)})
	}
	if len(l) != diag.Max || !l.Full() {
		t.Fatalf("after %d Adds: len = %d, Full = %v, want %d, true", 3*diag.Max, len(l), l.Full(), diag.Max)
	}
	last := l[len(l)-1]
	if last.Severity != diag.Note || !strings.Contains(last.Message, "the rest are left out") {
		t.Errorf("last = %v, want a note that the rest are left out", last)
	}
	if l[len(l)-2].Message != fmt.Sprint("x: problem ", diag.Max-2) {
		t.Errorf("last problem kept = %q", l[len(l)-2].Message)
	}
	if !strings.HasSuffix(l.Error(), fmt.Sprintf("(and %d more)", diag.Max-2)) {
		t.Errorf("Error() = %q", l.Error())
	}
}

func TestSort(t *testing.T) {
	l := diag.List{
		{Pos: diag.Pos{File: "b.vdx", Line: 2}, Message: "1"},
		{Pos: diag.Pos{File: "a.vdx", Line: 9, Col: 3}, Message: "2"},
		{Pos: diag.Pos{File: "a.vdx", Line: 9, Col: 1}, Message: "3"},
		{Pos: diag.Pos{File: "a.vdx", Page: "p", Shape: "4"}, Message: "4"},
		{Pos: diag.Pos{File: "a.vdx", Page: "p", Shape: "2"}, Message: "5"},
	}
	l.Sort()
	var got string
	for _, d := range l {
		got += d.Message
	}
	if want := "45321"; got != want {
		t.Errorf("sorted order = %s, want %s", got, want)
	}
}
