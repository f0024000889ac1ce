package chart_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

func TestPosString(t *testing.T) {
	for _, tt := range []struct {
		pos  chart.Pos
		want string
	}{
		{chart.Pos{}, ""},
		{chart.Pos{File: "goomba.vdx", Page: "Page-1", Shape: "12", ShapeName: "walkLeft", Line: 41, Col: 7}, `goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"`},
		{chart.Pos{File: "goomba.vdx", Line: 41}, "goomba.vdx:41"},
		{chart.Pos{File: "goomba.vdx"}, "goomba.vdx"},
		{chart.Pos{Line: 3, Col: 5}, "3:5"},
		{chart.Pos{Page: "Page-1", Shape: "12"}, `page "Page-1", shape 12`},
		{chart.Pos{File: "x.vdx", Shape: "12"}, "x.vdx: shape 12"},
		{chart.Pos{File: "x.vdx", Line: 2, Col: 1, ShapeName: "State"}, `x.vdx:2:1: "State"`},
		{chart.Pos{Page: "Flow \"1\"", ShapeName: "Retorna ao usuário"}, `page "Flow \"1\"", "Retorna ao usuário"`},
		{chart.Pos{Shape: "16", ShapeName: "Pergunta ao usuário se prefere receitas conforme o filtro"}, `shape 16 "Pergunta ao usuário se prefere receit..."`},
	} {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.pos, got, tt.want)
		}
		if got := tt.pos.IsZero(); got != (tt.pos == chart.Pos{}) {
			t.Errorf("%#v.IsZero() = %v", tt.pos, got)
		}
	}
}
