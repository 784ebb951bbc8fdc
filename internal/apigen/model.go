package apigen

// API is a drawn API group: kinds at two to four versions, one of them the
// hub (the storage version), each version a Go package of its own.
type API struct {
	Seed     uint64
	Group    string
	Versions []string // in the order the packages are written
	Hub      string
	Kinds    []*Kind
}

// Kind is a drawn kind: its types at each version.
type Kind struct {
	Name string
	// Status says whether the kind has the status subresource.
	Status bool
	// Types are, by version, the named struct types of the kind: the spec
	// and status first, then the nested types they use, in order.
	Types map[string][]*Struct
}

// Struct is a named struct type of one version.
type Struct struct {
	Name   string
	Fields []*Field
	// Markers go above the type (CEL rules).
	Markers []string
}

// Field is a field of a drawn struct.
type Field struct {
	Name string // Go name; empty for an embedded field
	Type *Type
	JSON string // the tag's name ("" for inline)
	// Opts are the tag's options after the name: omitempty, omitzero,
	// inline; Skip is json:"-".
	Opts    []string
	Skip    bool
	Markers []string
}

// Tag is the field's json struct tag.
func (f *Field) Tag() string {
	if f.Skip {
		return `json:"-"`
	}
	s := f.JSON
	for _, o := range f.Opts {
		s += "," + o
	}
	return `json:"` + s + `"`
}

// Has reports whether the tag has the option o.
func (f *Field) Has(o string) bool {
	for _, x := range f.Opts {
		if x == o {
			return true
		}
	}
	return false
}

// Inline reports whether the field is an embedded struct whose fields JSON
// promotes into the enclosing object.
func (f *Field) Inline() bool { return f.Name == "" }

// TypeKind is what a drawn type is.
type TypeKind int

const (
	Leaf  TypeKind = iota // a leaf: a builtin or a well-known type, Leaf names it
	Named                 // a named struct of the same version, Named names it
	Ptr                   // a pointer to Elem
	Slice                 // a slice of Elem
	Map                   // a map from string to Elem
)

// Type is a drawn Go type.
type Type struct {
	Kind TypeKind
	Leaf *LeafType
	Name string
	Elem *Type
}

// LeafType is a type the drawn APIs use as a whole: Go's builtins and the
// apimachinery and core/v1 types operators use.
type LeafType struct {
	Go     string // the Go expression, with the import's alias
	Import string // the import path, "" for builtins
	Alias  string
	// Values are JSON texts a client may write for it, zero first when it
	// has one a client writes (Zero).
	Values []string
	// Zero is the JSON text encoding/json writes for its zero value, ""
	// when it has none a client would write (a struct's {} is one).
	Zero string
	// Nullable: JSON null decodes into it (a slice, map or raw JSON).
	Nullable bool
	// Ordered is true for the leaves a +kubebuilder:default or an enum may
	// be put on (strings, integers, booleans).
	Ordered bool
	// Width of an integer leaf: 32 or 64; 0 otherwise.
	Width int
}
