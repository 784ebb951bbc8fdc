package conversion

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGeneratedConversionsUseOnlyTheLosslessAPI checks every committed
// conversion file, goldens and examples: the only runtime package they
// import is runtime/lossless, they use nothing of it but Convert and the
// three direction constructors, and every ConvertTo and ConvertFrom calls
// Convert exactly once. The protocol must stay in the runtime, where a fix
// ships without regenerating.
func TestGeneratedConversionsUseOnlyTheLosslessAPI(t *testing.T) {
	allowed := map[string]bool{"Convert": true, "Checked": true, "RoundTrip": true, "Lossless": true}
	var files []string
	for _, root := range []string{"../../testdata", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == FileName {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("found only %d conversion files", len(files))
	}
	for _, path := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		alias := ""
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case p == losslessPath:
				alias = "lossless"
				if imp.Name != nil {
					alias = imp.Name.Name
				}
			case strings.HasPrefix(p, "github.com/crdforge/crdforge/runtime"):
				t.Errorf("%s imports %s", path, p)
			}
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			calls := 0
			ast.Inspect(fn, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && alias != "" && id.Name == alias {
					if !allowed[sel.Sel.Name] {
						t.Errorf("%s: %s uses lossless.%s", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
					}
					if sel.Sel.Name == "Convert" {
						calls++
					}
				}
				return true
			})
			entry := fn.Recv != nil && (fn.Name.Name == "ConvertTo" || fn.Name.Name == "ConvertFrom")
			if entry && calls != 1 || !entry && calls != 0 {
				t.Errorf("%s: %s calls lossless.Convert %d times", fset.Position(fn.Pos()), fn.Name.Name, calls)
			}
		}
	}
}
