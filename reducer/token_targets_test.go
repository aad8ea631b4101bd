package reducer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTokenTargetsForgotten: every function of the package that writes to
// msgByID or toolByID, clears, deletes from or replaces them, also forgets
// the token targets (tokenTargets), so that a token never goes to an
// entity the maps no longer give for its id.
func TestTokenTargetsForgotten(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	isIndex := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && (sel.Sel.Name == "msgByID" || sel.Sel.Name == "toolByID")
	}
	fset := token.NewFileSet()
	writers := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			var writes []token.Pos
			forgets := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, l := range n.Lhs {
						if ix, ok := l.(*ast.IndexExpr); ok && isIndex(ix.X) || isIndex(l) {
							writes = append(writes, n.Pos())
						}
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "clear" || id.Name == "delete") && len(n.Args) > 0 && isIndex(n.Args[0]) {
						writes = append(writes, n.Pos())
					}
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "forgetTokens" {
						forgets = true
					}
				}
				return true
			})
			if len(writes) > 0 {
				writers++
				assert.True(t, forgets, "%s: %s changes msgByID or toolByID without forgetTokens", fset.Position(writes[0]), fn.Name.Name)
			}
		}
	}
	require.Positive(t, writers)
}
