package deepcopy

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
)

// controller-tools' generator copies some fields wrong: a slice or map of
// pointers, or a pointer to a pointer, to a type with deepcopy methods
// (model.CopyRepair says which, and why). Its output for those fields does
// not compile or panics on nil, in controller-gen's own run too. crdforge
// keeps the rest of its file as it is, controller-gen's byte for byte, and
// puts its own statement in place of each such field's: controller-tools
// copies a reference field in one `if in.Field != nil { ... }`, and
// crdforge's statement for it has that shape too.

// printRepair prints r's field's copy as the one statement of a DeepCopyInto
// of r's type, for splice to take out.
func printRepair(f *jen.File, r *model.CopyRepair) {
	recv := jen.Id("in").Op("*").Id(r.Type)
	body := elemCopy(jen.Id("in").Dot(r.Field), jen.Id("out").Dot(r.Field), r.Copy, true)
	f.Func().Params(recv).Id("DeepCopyInto").Params(jen.Id("out").Op("*").Id(r.Type)).Block(body...)
}

// splice puts in ct, in place of controller-tools' copy of each repaired
// field, crdforge's statement from src (printRepair's), and parses the
// result again.
func splice(ct []byte, ctFile *ast.File, src []byte, ours *ast.File, repairs []*model.CopyRepair) ([]byte, *ast.File, error) {
	printed := repairFuncs(ours, repairs)
	if len(printed) != len(repairs) {
		return nil, nil, fmt.Errorf("crdforge printed %d field copies for %d repairs", len(printed), len(repairs))
	}
	type edit struct {
		start, end token.Pos // in ct
		text       []byte
	}
	var edits []edit
	for i, r := range repairs {
		stmt := fieldCopy(ctFile, r)
		if stmt == nil {
			return nil, nil, fmt.Errorf("controller-tools' DeepCopyInto of %s has no copy of %s to replace", r.Type, r.Field)
		}
		list := printed[i].Body.List
		text := src[list[0].Pos()-ours.FileStart : list[len(list)-1].End()-ours.FileStart]
		edits = append(edits, edit{stmt.Pos() - ctFile.FileStart, stmt.End() - ctFile.FileStart, text})
	}
	slices.SortFunc(edits, func(a, b edit) int { return int(b.start - a.start) }) // from the end, so offsets hold
	out := slices.Clone(ct)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], e.text, out[e.end:])
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", out, parser.ParseComments)
	if err != nil {
		return nil, nil, fmt.Errorf("controller-tools' deepcopy output with crdforge's field copies does not parse: %v", err)
	}
	return out, f, nil
}

// repairFuncs are printRepair's functions in ours, in the order of repairs:
// the DeepCopyInto methods of repaired types (crdforge copies none of
// those types whole).
func repairFuncs(ours *ast.File, repairs []*model.CopyRepair) []*ast.FuncDecl {
	repaired := map[string]bool{}
	for _, r := range repairs {
		repaired[r.Type] = true
	}
	var out []*ast.FuncDecl
	for _, d := range ours.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "DeepCopyInto" && repaired[receiverType(fd)] {
			out = append(out, fd)
		}
	}
	return out
}

// withoutRepairs is ours without printRepair's functions, which splice has
// put in place: what merge adds of it is the imports they need, and
// crdforge's own types' methods.
func withoutRepairs(ours *ast.File, repairs []*model.CopyRepair) *ast.File {
	drop := repairFuncs(ours, repairs)
	f := *ours
	f.Decls = slices.DeleteFunc(slices.Clone(ours.Decls), func(d ast.Decl) bool {
		fd, ok := d.(*ast.FuncDecl)
		return ok && slices.Contains(drop, fd)
	})
	return &f
}

// fieldCopy is the statement of ctFile's DeepCopyInto of r's type that
// copies r's field: `if in.Field != nil { ... }`.
func fieldCopy(ctFile *ast.File, r *model.CopyRepair) ast.Stmt {
	for _, d := range ctFile.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "DeepCopyInto" || receiverType(fd) != r.Type || fd.Body == nil {
			continue
		}
		for _, stmt := range fd.Body.List {
			if ifs, ok := stmt.(*ast.IfStmt); ok && ifs.Init == nil && isNonNilField(ifs.Cond, r.Field) {
				return stmt
			}
		}
	}
	return nil
}

// isNonNilField reports whether cond is `in.field != nil`.
func isNonNilField(cond ast.Expr, field string) bool {
	b, ok := cond.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	sel, ok := b.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != field {
		return false
	}
	in, ok := sel.X.(*ast.Ident)
	nilID, isNil := b.Y.(*ast.Ident)
	return ok && in.Name == "in" && isNil && nilID.Name == "nil"
}
