package markers

import (
	"errors"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/internal/diag"
)

// Comment is one marker comment line: its text from the '+' on, and the
// position of the '+'.
type Comment struct {
	Text string
	Pos  token.Pos
}

// Name returns the marker's name with arguments and the leading '+' cut off,
// as in "kubebuilder:storageversion" for "+kubebuilder:storageversion".
func (c Comment) Name() string {
	name, _, _ := strings.Cut(c.Text[1:], "=")
	return name
}

// Value is a parsed +crdforge: marker: the typed value its definition
// produced, and where it was written.
type Value struct {
	Name  string
	Value any
	Pos   token.Pos
}

// Set holds the markers of one package, by the node they describe.
type Set struct {
	// Package, Types and Fields hold the parsed +crdforge: markers.
	Package []Value
	Types   map[*ast.TypeSpec][]Value
	Fields  map[*ast.Field][]Value
	// Comments holds every marker comment (kubebuilder's too) by the node it
	// describes: *ast.TypeSpec, *ast.Field, or *ast.File for package markers.
	Comments map[ast.Node][]Comment

	// nowhere holds +crdforge: markers in places that describe nothing.
	nowhere []Comment
}

// Find returns the first marker comment on node whose name is name or starts
// with name+":". It returns NoPos when there is none.
func (s *Set) Find(node ast.Node, name string) token.Pos {
	for _, c := range s.Comments[node] {
		if n := c.Name(); n == name || strings.HasPrefix(n, name+":") {
			return c.Pos
		}
	}
	return token.NoPos
}

// Collect associates every marker comment of pkg with the package, type or
// field it describes, following controller-tools' rules: a marker belongs to
// a type or field when it is in its doc comment or in the closest comment
// group above it; any other marker outside declarations belongs to the
// package. Every +crdforge: marker is parsed right away; an unknown one, one
// in the wrong place or one with bad arguments is an error at the comment.
func (r *Registries) Collect(pkg *loader.Package, diags *diag.List) *Set {
	pkg.NeedSyntax()
	set := &Set{
		Types:    map[*ast.TypeSpec][]Value{},
		Fields:   map[*ast.Field][]Value{},
		Comments: map[ast.Node][]Comment{},
	}
	for _, file := range pkg.Syntax {
		c := fileCollector{regs: r, file: file, set: set}
		c.associate()
	}
	for node, comments := range set.Comments {
		target := targetOf(node)
		for _, c := range comments {
			if !strings.HasPrefix(c.Text, Prefix) {
				continue
			}
			v, ok := r.parse(c, target, diags)
			if !ok {
				continue
			}
			switch n := node.(type) {
			case *ast.File:
				set.Package = append(set.Package, v)
			case *ast.TypeSpec:
				set.Types[n] = append(set.Types[n], v)
			case *ast.Field:
				set.Fields[n] = append(set.Fields[n], v)
			}
		}
	}
	for _, c := range set.nowhere {
		diags.Errorf(c.Pos, "marker %s describes nothing here", strings.Fields(c.Text)[0]).
			Help("put it in the package's doc comment, above a type, or above a field")
	}
	slices.SortFunc(set.Package, func(a, b Value) int { return int(a.Pos - b.Pos) })
	return set
}

func targetOf(node ast.Node) ctmarkers.TargetType {
	switch node.(type) {
	case *ast.File:
		return ctmarkers.DescribesPackage
	case *ast.Field:
		return ctmarkers.DescribesField
	default:
		return ctmarkers.DescribesType
	}
}

var targetNames = map[ctmarkers.TargetType]string{
	ctmarkers.DescribesPackage: "a package",
	ctmarkers.DescribesType:    "a type",
	ctmarkers.DescribesField:   "a field",
}

func (r *Registries) parse(c Comment, target ctmarkers.TargetType, diags *diag.List) (Value, bool) {
	def := r.Crdforge.Lookup(c.Text, target)
	if def == nil {
		var fits []string
		name := c.Name()
		for _, t := range []ctmarkers.TargetType{ctmarkers.DescribesPackage, ctmarkers.DescribesType, ctmarkers.DescribesField} {
			if d := r.Crdforge.Lookup(c.Text, t); d != nil {
				fits = append(fits, targetNames[t])
				name = d.Name // without its arguments (crdforge:deprecated, not crdforge:deprecated:warning)
			}
		}
		if len(fits) > 0 {
			diags.Errorf(c.Pos, "marker +%s describes %s, but here it describes %s", name, strings.Join(fits, " or "), targetNames[target])
		} else {
			d := diags.Errorf(c.Pos, "unknown marker +%s", c.Name())
			if s := r.suggest(c.Name()); s != "" {
				d.Help("did you mean +%s?", s)
			}
			d.Help("`crdforge markers` lists them all")
		}
		return Value{}, false
	}
	val, err := def.Parse(c.Text)
	if err != nil {
		diags.Errorf(c.Pos, "invalid marker +%s: %s", def.Name, describeParseError(err))
		return Value{}, false
	}
	return Value{Name: def.Name, Value: val, Pos: c.Pos}, true
}

// describeParseError flattens controller-tools' scanner errors, dropping their
// positions inside the marker text (ours points at the comment).
func describeParseError(err error) string {
	var list loader.ErrList
	if !errors.As(err, &list) {
		list = loader.ErrList{err}
	}
	msgs := make([]string, 0, len(list))
	for _, e := range list {
		var se *ctmarkers.ScannerError
		if errors.As(e, &se) {
			msgs = append(msgs, se.Msg)
		} else {
			msgs = append(msgs, e.Error())
		}
	}
	return strings.Join(msgs, "; ")
}

// suggest names the closest known +crdforge: marker, if one is close, or
// is "".
func (r *Registries) suggest(name string) string {
	best, bestDist := "", 4
	for _, def := range r.Crdforge.AllDefinitions() {
		if d := editDistance(name, def.Name); d < bestDist {
			best, bestDist = def.Name, d
		}
	}
	if best == "" {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// fileCollector associates the comment groups of one file with nodes.
type fileCollector struct {
	regs *Registries
	file *ast.File
	set  *Set
}

func (c *fileCollector) associate() {
	groups := c.file.Comments
	decls := c.file.Decls
	for gi, g := range groups {
		// The declaration that contains the group, if any.
		di, inside := slices.BinarySearchFunc(decls, g.Pos(), func(d ast.Decl, p token.Pos) int {
			switch {
			case d.End() <= p:
				return -1
			case d.Pos() > p:
				return 1
			default:
				return 0
			}
		})
		if inside {
			c.insideDecl(decls[di], g)
			continue
		}
		// A comment on the line a declaration ends, as in `type T int //
		// +marker`, describes nothing.
		if di > 0 && trailing(decls[di-1], g) {
			c.nowhere(g)
			continue
		}
		// Outside every declaration: a type's markers when it is the doc
		// comment or the closest group above a single type declaration;
		// nothing's when it is the doc comment of another declaration (a
		// function, a var, a parenthesized type block); the package's
		// otherwise.
		if di < len(decls) {
			if gd, ok := decls[di].(*ast.GenDecl); ok && gd.Tok == token.TYPE && !gd.Lparen.IsValid() && len(gd.Specs) == 1 {
				closest := gi == len(groups)-1 || groups[gi+1].Pos() > gd.Pos() ||
					(gd.Doc != nil && groups[gi+1] == gd.Doc)
				if g == gd.Doc || closest {
					c.add(gd.Specs[0].(*ast.TypeSpec), g, g != gd.Doc)
					continue
				}
			} else if g == docOf(decls[di]) {
				c.nowhere(g)
				continue
			}
		}
		c.add(c.file, g, false)
	}
}

// docOf returns a declaration's doc comment.
func docOf(d ast.Decl) *ast.CommentGroup {
	switch d := d.(type) {
	case *ast.GenDecl:
		return d.Doc
	case *ast.FuncDecl:
		return d.Doc
	}
	return nil
}

// trailing reports whether g is the end-of-line comment of a spec of d.
func trailing(d ast.Decl, g *ast.CommentGroup) bool {
	gd, ok := d.(*ast.GenDecl)
	if !ok {
		return false
	}
	for _, spec := range gd.Specs {
		if specComment(spec) == g {
			return true
		}
	}
	return false
}

func specComment(spec ast.Spec) *ast.CommentGroup {
	switch s := spec.(type) {
	case *ast.TypeSpec:
		return s.Comment
	case *ast.ValueSpec:
		return s.Comment
	case *ast.ImportSpec:
		return s.Comment
	}
	return nil
}

// insideDecl associates a group that lies inside a declaration: before a
// type spec in a type block, or before a field in a struct.
func (c *fileCollector) insideDecl(d ast.Decl, g *ast.CommentGroup) {
	gd, ok := d.(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE {
		c.nowhere(g) // markers inside functions, vars and consts describe nothing
		return
	}
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		if ts.Comment == g {
			c.nowhere(g)
			return
		}
		if g.End() <= ts.Pos() {
			c.add(ts, g, g != ts.Doc)
			return
		}
		if g.Pos() < ts.End() {
			if st, ok := ts.Type.(*ast.StructType); ok {
				c.inStruct(st, g)
			}
			return
		}
	}
}

func (c *fileCollector) inStruct(st *ast.StructType, g *ast.CommentGroup) {
	for _, f := range st.Fields.List {
		if f.Comment == g {
			c.nowhere(g)
			return
		}
		if g.End() <= f.Pos() {
			c.add(f, g, false)
			return
		}
		if g.Pos() < f.End() {
			if inner, ok := f.Type.(*ast.StructType); ok {
				c.inStruct(inner, g)
			}
			return
		}
	}
}

// nowhere records the crdforge markers of a group that describes nothing,
// so that they are reported rather than dropped. (controller-tools drops
// its own there without a word.)
func (c *fileCollector) nowhere(g *ast.CommentGroup) {
	for _, cm := range g.List {
		if text, ok := markerText(cm.Text); ok && strings.HasPrefix(text, Prefix) {
			c.set.nowhere = append(c.set.nowhere, Comment{Text: text, Pos: cm.Slash + token.Pos(strings.Index(cm.Text, "+"))})
		}
	}
}

// add records the marker comments of g on node. Markers in a non-doc group
// above a type that crdforge knows only as package markers move to the
// package, as controller-tools does.
func (c *fileCollector) add(node ast.Node, g *ast.CommentGroup, loose bool) {
	for _, cm := range g.List {
		text, ok := markerText(cm.Text)
		if !ok {
			continue
		}
		mc := Comment{Text: text, Pos: cm.Slash + token.Pos(strings.Index(cm.Text, "+"))}
		target := node
		if _, isType := node.(*ast.TypeSpec); isType && loose && c.packageOnly(text) {
			target = c.file
		}
		c.set.Comments[target] = append(c.set.Comments[target], mc)
	}
}

// packageOnly reports whether text is a marker known only at package level,
// in either vocabulary.
func (c *fileCollector) packageOnly(text string) bool {
	regs := []*ctmarkers.Registry{c.regs.Kubebuilder, c.regs.Crdforge}
	for _, reg := range regs {
		if reg.Lookup(text, ctmarkers.DescribesType) != nil {
			return false
		}
	}
	for _, reg := range regs {
		if reg.Lookup(text, ctmarkers.DescribesPackage) != nil {
			return true
		}
	}
	return false
}

// markerText returns the marker of a // comment line: its text from the '+',
// trimmed. Block comments never hold markers.
func markerText(comment string) (string, bool) {
	if !strings.HasPrefix(comment, "//") {
		return "", false
	}
	s := strings.TrimSpace(comment[2:])
	if !strings.HasPrefix(s, "+") || len(s) < 2 {
		return "", false
	}
	return s, true
}
