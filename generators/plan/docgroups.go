package plan

import (
	"go/ast"
	"go/token"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// docGroups finds the comment group that gengo, and so conversion-gen,
// takes as a declaration's comment: the one whose last line is the line
// right above the declaration's name.
type docGroups struct {
	fset *token.FileSet
	pkg  *loader.Package
	// byFile maps each file to its groups by the line they end on.
	byFile map[*token.File]map[int]*ast.CommentGroup
}

func (d *docGroups) closest(pos token.Pos) *ast.CommentGroup {
	tf := d.fset.File(pos)
	if tf == nil {
		return nil
	}
	if d.byFile == nil {
		d.byFile = map[*token.File]map[int]*ast.CommentGroup{}
	}
	ends, ok := d.byFile[tf]
	if !ok {
		ends = map[int]*ast.CommentGroup{}
		for _, f := range d.pkg.Syntax {
			if d.fset.File(f.Pos()) != tf {
				continue
			}
			for _, g := range f.Comments {
				ends[d.fset.Position(g.End()).Line] = g
			}
		}
		d.byFile[tf] = ends
	}
	return ends[d.fset.Position(pos).Line-1]
}
