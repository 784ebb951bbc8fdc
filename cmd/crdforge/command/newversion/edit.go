package newversion

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// editedFile is a parsed Go file and the edits planned for it.
type editedFile struct {
	path  string
	src   []byte
	fset  *token.FileSet
	file  *ast.File
	edits []edit
}

// sourceFiles parses the hand-written Go files of the package in dir, with
// its tests when withTests: not generated ones (those are regenerated).
func sourceFiles(dir string, withTests bool) ([]*editedFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*editedFile
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || (!withTests && strings.HasSuffix(name, "_test.go")) {
			continue
		}
		p := filepath.Join(dir, name)
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if ast.IsGenerated(f) {
			continue
		}
		out = append(out, &editedFile{path: p, src: src, fset: fset, file: f})
	}
	return out, nil
}

func (e *editedFile) off(p token.Pos) int { return e.fset.Position(p).Offset }

func (e *editedFile) replace(from, to token.Pos, text string) {
	e.edits = append(e.edits, edit{e.off(from), e.off(to), text})
}

// lineStart is the offset of the start of the line holding offset off.
func (e *editedFile) lineStart(off int) int {
	return bytes.LastIndexByte(e.src[:off], '\n') + 1
}

// dropLine removes the line of the comment c, newline included.
func (e *editedFile) dropLine(c *ast.Comment) {
	start := e.lineStart(e.off(c.Pos()))
	end := e.off(c.End())
	if end < len(e.src) && e.src[end] == '\n' {
		end++
	}
	e.edits = append(e.edits, edit{start, end, ""})
}

// insertLineBefore adds "// text" as a line of its own above the line of p,
// indented as that line is.
func (e *editedFile) insertLineBefore(p token.Pos, text string) {
	off := e.off(p)
	start := e.lineStart(off)
	indent := string(e.src[start:off])
	e.edits = append(e.edits, edit{start, start, indent + "// " + text + "\n"})
}

func (e *editedFile) changed() bool { return len(e.edits) > 0 }

// result applies the edits and formats the file.
func (e *editedFile) result() ([]byte, error) {
	edits := slices.Clone(e.edits)
	slices.SortStableFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := slices.Clone(e.src)
	for i, ed := range edits {
		if i > 0 && ed.end > edits[i-1].start {
			return nil, fmt.Errorf("%s: overlapping edits at offset %d", e.path, ed.start)
		}
		out = slices.Concat(out[:ed.start], []byte(ed.text), out[ed.end:])
	}
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("%s: the rewritten file does not parse (%v); this is a crdforge bug", e.path, err)
	}
	return formatted, nil
}

// markerOf returns the marker a comment line is, "+name:args", or "".
func markerOf(c *ast.Comment) string {
	t := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
	if strings.HasPrefix(t, "+") {
		return t
	}
	return ""
}

// isMarker reports whether marker m is name, with or without arguments.
func isMarker(m, name string) bool {
	return m == name || strings.HasPrefix(m, name+":") || strings.HasPrefix(m, name+"=")
}

// rootTypes are the declarations of the kinds' root types in f.
func rootTypes(f *ast.File, kinds []string) []*ast.GenDecl {
	var out []*ast.GenDecl
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); slices.Contains(kinds, ts.Name.Name) {
				out = append(out, g)
			}
		}
	}
	return out
}

// editPackage plans, in the package in dir, the removal of the markers
// named in drop (wherever they are), and the addition of addPkg above the
// package clause of the file that has the package comment (or the first
// file) and of addTypes above every root type of kinds. Files it changes
// land in edits.
func editPackage(dir string, kinds, drop, addPkg, addTypes []string, edits map[string]*editedFile) error {
	if len(drop)+len(addPkg)+len(addTypes) == 0 {
		return nil
	}
	files, err := sourceFiles(dir, false)
	if err != nil {
		return err
	}
	pkgFile := packageDocFile(files)
	for _, e := range files {
		for _, cg := range e.file.Comments {
			for _, c := range cg.List {
				if m := markerOf(c); m != "" && slices.ContainsFunc(drop, func(d string) bool { return isMarker(m, d) }) {
					e.dropLine(c)
				}
			}
		}
		if e == pkgFile {
			for _, mk := range addPkg {
				e.insertLineBefore(e.file.Package, mk)
			}
		}
		for _, g := range rootTypes(e.file, kinds) {
			for _, mk := range addTypes {
				e.insertLineBefore(g.Pos(), mk)
			}
		}
		if e.changed() {
			edits[e.path] = e
		}
	}
	return nil
}

// packageDocFile is the file whose package clause has a doc comment, else
// the first.
func packageDocFile(files []*editedFile) *editedFile {
	for _, e := range files {
		if e.file.Doc != nil {
			return e
		}
	}
	if len(files) > 0 {
		return files[0]
	}
	return nil
}

// scanMarkers calls fn with every marker in the hand-written files of the
// package in dir.
func scanMarkers(dir string, fn func(marker string)) error {
	files, err := sourceFiles(dir, false)
	if err != nil {
		return err
	}
	for _, e := range files {
		for _, cg := range e.file.Comments {
			for _, c := range cg.List {
				if m := markerOf(c); m != "" {
					fn(m)
				}
			}
		}
	}
	return nil
}
