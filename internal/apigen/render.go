package apigen

import (
	"bytes"
	"fmt"
	"go/format"
	"maps"
	"path"
	"slices"
	"strings"
)

// Files are the API's Go sources, by path relative to its directory:
// api/<version>/groupversion_info.go and api/<version>/types.go.
func (api *API) Files() (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, v := range api.Versions {
		dir := path.Join("api", v)
		files[path.Join(dir, "groupversion_info.go")] = []byte(fmt.Sprintf(
			"// Package %s is version %s of %s, drawn from seed %d.\n// +kubebuilder:object:generate=true\n// +groupName=%s\npackage %s\n",
			v, v, api.Group, api.Seed, api.Group, v))
		src, err := api.types(v)
		if err != nil {
			return nil, err
		}
		files[path.Join(dir, "types.go")] = src
	}
	return files, nil
}

// types is the types.go of version v.
func (api *API) types(v string) ([]byte, error) {
	var body bytes.Buffer
	imports := map[string]string{metav1Import: "metav1"}
	for _, k := range api.Kinds {
		for _, s := range k.Types[v] {
			writeStruct(&body, s, imports)
		}
		writeRoot(&body, k, v == api.Hub)
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, "package %s\n\nimport (\n", v)
	for _, p := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&src, "\t%s %q\n", imports[p], p)
	}
	src.WriteString(")\n")
	src.Write(body.Bytes())
	out, err := format.Source(src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("apigen: seed %d, %s: %w\n%s", api.Seed, v, err, src.Bytes())
	}
	return out, nil
}

func writeStruct(b *bytes.Buffer, s *Struct, imports map[string]string) {
	fmt.Fprintf(b, "\n// %s is a drawn struct.\n", s.Name)
	for _, m := range s.Markers {
		fmt.Fprintf(b, "// %s\n", m)
	}
	fmt.Fprintf(b, "type %s struct {\n", s.Name)
	for _, f := range s.Fields {
		for _, m := range f.Markers {
			fmt.Fprintf(b, "\t// %s\n", m)
		}
		if f.Inline() {
			fmt.Fprintf(b, "\t%s `%s`\n", goType(f.Type, imports), f.Tag())
			continue
		}
		fmt.Fprintf(b, "\t%s %s `%s`\n", f.Name, goType(f.Type, imports), f.Tag())
	}
	b.WriteString("}\n")
}

func writeRoot(b *bytes.Buffer, k *Kind, hub bool) {
	b.WriteString("\n// +kubebuilder:object:root=true\n")
	if k.Status {
		b.WriteString("// +kubebuilder:subresource:status\n")
	}
	if hub {
		b.WriteString("// +kubebuilder:storageversion\n")
	}
	fmt.Fprintf(b, `
// %[1]s is a drawn kind.
type %[1]s struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`

	Spec   %[1]sSpec   `+"`json:\"spec,omitempty\"`"+`
	Status %[1]sStatus `+"`json:\"status,omitempty\"`"+`
}

// +kubebuilder:object:root=true

// %[1]sList is a list of %[1]s.
type %[1]sList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`
	Items           []%[1]s `+"`json:\"items\"`"+`
}
`, k.Name)
}

// goType is t's Go expression; it adds the imports t needs.
func goType(t *Type, imports map[string]string) string {
	switch t.Kind {
	case Leaf:
		if t.Leaf.Import != "" {
			imports[t.Leaf.Import] = t.Leaf.Alias
		}
		return t.Leaf.Go
	case Named:
		return t.Name
	case Ptr:
		return "*" + goType(t.Elem, imports)
	case Slice:
		return "[]" + goType(t.Elem, imports)
	}
	return "map[string]" + goType(t.Elem, imports)
}

// String is the API's types at every version, for a failure's message.
func (api *API) String() string {
	var b strings.Builder
	files, err := api.Files()
	if err != nil {
		return err.Error()
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if strings.HasSuffix(p, "types.go") {
			fmt.Fprintf(&b, "--- %s\n%s", p, files[p])
		}
	}
	return b.String()
}
