package output

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// GroupImports rewrites the import block of src, gofmt-ed Go as jennifer
// prints it (one sorted block), into goimports' groups: the standard
// library first, then everything else, each sorted, a blank line between.
// Only the import block is parsed (parser.ImportsOnly) and rewritten: going
// through golang.org/x/tools/imports would parse and print the whole file a
// second time, and a codec file runs to thousands of lines. Comments inside
// the block, which jennifer never writes, leave src as it is.
func GroupImports(src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil || len(f.Imports) < 2 {
		return src
	}
	var decl *ast.GenDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			if decl != nil || !g.Lparen.IsValid() {
				return src // several import declarations: not jennifer's
			}
			decl = g
		}
	}
	start, end := fset.Position(decl.Lparen).Offset, fset.Position(decl.Rparen).Offset
	for _, c := range f.Comments {
		if off := fset.Position(c.Pos()).Offset; off > start && off < end {
			return src
		}
	}
	var std, rest []string
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return src
		}
		line := spec.Path.Value
		if spec.Name != nil {
			line = spec.Name.Name + " " + line
		}
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			rest = append(rest, line)
		} else {
			std = append(std, line)
		}
	}
	sortByPath := func(lines []string) {
		slices.SortFunc(lines, func(a, b string) int { return strings.Compare(pathOf(a), pathOf(b)) })
	}
	sortByPath(std)
	sortByPath(rest)
	var b bytes.Buffer
	b.Write(src[:start+1])
	b.WriteByte('\n')
	for i, group := range [][]string{std, rest} {
		if i == 1 && len(std) > 0 && len(rest) > 0 {
			b.WriteByte('\n')
		}
		for _, line := range group {
			b.WriteString("\t" + line + "\n")
		}
	}
	b.Write(src[end:])
	return b.Bytes()
}

// pathOf is the quoted import path of an import line, alias or not.
func pathOf(line string) string {
	return line[strings.IndexByte(line, '"'):]
}
