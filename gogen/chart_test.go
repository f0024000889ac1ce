package gogen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/gogen"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestStatechartsTypeCheck generates code for every converted W3C test
// and type-checks it: every statechart the suite's shapes make compiles.
func TestStatechartsTypeCheck(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "internal", "w3c", "testdata", "scxml", "*.scxml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no W3C tests: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".scxml")
		t.Run(name, func(t *testing.T) {
			tbl := fixtures.W3C(name)
			opt := gogen.Options{Package: "w3c"}
			got, err := gogen.Generate(tbl, opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := typeCheck(got, opt); err != nil {
				t.Errorf("the generated code does not type-check: %v", err)
			}
		})
	}
}

// TestStatechartStackAPI checks that a statechart that pushes and returns
// gets the stack's API of a flat table's file, with the same names, types
// and texts (StackError's fields, ErrStackOverflow, ErrStackUnderflow,
// StackLimit, Depth), with a prefix and a host type, and that a statechart
// without the stack gets none of it.
func TestStatechartStackAPI(t *testing.T) {
	gen := func(tbl *table.Table, opt gogen.Options) []string {
		t.Helper()
		src, err := gogen.Generate(tbl, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := typeCheck(src, opt); err != nil {
			t.Fatalf("%s: the generated code does not type-check: %v", tbl.Name(), err)
		}
		return stackAPI(t, src, opt.Prefix)
	}
	flat := gen(fixtures.Guard(), gogen.Options{Package: "game", Prefix: "Guard"})
	chart := gen(fixtures.Sentry(), gogen.Options{Package: "game", Prefix: "Sentry", Host: "*Bot"})
	t.Logf("the stack's API: %s", strings.Join(flat, "; "))
	if len(flat) == 0 || !slices.Equal(chart, flat) {
		t.Errorf("the statechart's stack API is\n\t%s\nwant the flat table's\n\t%s", strings.Join(chart, "\n\t"), strings.Join(flat, "\n\t"))
	}
	if none := gen(fixtures.NPC(), gogen.Options{Package: "game", Prefix: "NPC"}); len(none) > 0 {
		t.Errorf("a statechart without the stack declares %v", none)
	}
}

// stackAPI returns what generated file src declares of the stack, prefix
// pre removed and sorted: StackError's fields and methods, the sentinel
// errors with their texts, StackLimit and Depth.
func stackAPI(t *testing.T, src []byte, pre string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	unprefix := func(s string) string { return strings.ReplaceAll(s, pre, "") }
	var api []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					st, ok := s.Type.(*ast.StructType)
					if !ok || s.Name.Name != pre+"StackError" {
						continue
					}
					for _, fl := range st.Fields.List {
						for _, n := range fl.Names {
							api = append(api, "StackError."+n.Name+" "+unprefix(types.ExprString(fl.Type)))
						}
					}
				case *ast.ValueSpec:
					for i, n := range s.Names {
						switch name := unprefix(n.Name); name {
						case "ErrStackOverflow", "ErrStackUnderflow":
							api = append(api, name+" = "+types.ExprString(s.Values[i]))
						case "StackLimit":
							api = append(api, name)
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || !d.Name.IsExported() {
				continue
			}
			recv := unprefix(types.ExprString(d.Recv.List[0].Type))
			if recv == "*StackError" || d.Name.Name == "Depth" {
				api = append(api, "func ("+recv+") "+d.Name.Name+unprefix(strings.TrimPrefix(types.ExprString(d.Type), "func")))
			}
		}
	}
	slices.Sort(api)
	return api
}
