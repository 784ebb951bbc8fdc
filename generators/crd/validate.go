package crd

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/request"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/crdstrategy"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/passrecord"
	"github.com/crdforge/crdforge/markers"
)

// validator runs a CRD through what kube-apiserver does on create: defaulting,
// conversion to the internal version, the registry strategy's preparation
// (package crdstrategy), apiextensions-apiserver's validation (structural
// schema, CEL compilation and cost, names, conversion settings) and the
// strategy's warnings.
//
// A validator is safe for concurrent use.
type validator struct {
	m *model.Model
	// passed records the CRDs that passed before, by their printed
	// bytes; nil validates every CRD.
	passed *passrecord.Record
	scheme *runtime.Scheme
}

func newValidator(m *model.Model, passed *passrecord.Record) *validator {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return &validator{m: m, passed: passed, scheme: scheme}
}

// validatePrinted validates c, printed as printed, unless a CRD printed
// the same passed before; a CRD that passes, with neither error nor
// warning, is recorded as passed. The printed bytes stand for c: they are
// c's every field in a fixed order (Marshal).
func (v *validator) validatePrinted(k *model.Kind, c *apiextensionsv1.CustomResourceDefinition, printed []byte, diags *diag.List) {
	if v.passed.Passed(printed) {
		return
	}
	found := diag.New(v.m.Fset)
	v.validate(k, c, found)
	if len(found.Items()) == 0 {
		v.passed.RecordPass(printed)
	}
	diags.Append(found)
}

// validateCopy validates a copy of c, which it leaves as it is, unless a
// CRD printed as c passed before (see validatePrinted).
func (v *validator) validateCopy(k *model.Kind, c *apiextensionsv1.CustomResourceDefinition, diags *diag.List) {
	if v.passed == nil {
		v.validate(k, c.DeepCopy(), diags)
		return
	}
	printed, err := Marshal(c)
	if err != nil {
		diags.Errorf(k.Pos(), "marshaling the CRD for %s: %v", k.Name, err)
		return
	}
	v.validatePrinted(k, c.DeepCopy(), printed, diags)
}

func (v *validator) validate(k *model.Kind, c *apiextensionsv1.CustomResourceDefinition, diags *diag.List) {
	external := c // defaulted in place: the caller has printed it already
	v.scheme.Default(external)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := v.scheme.Convert(external, internal, nil); err != nil {
		diags.Errorf(k.Pos(), "CRD %s: converting for validation: %v", c.Name, err)
		return
	}
	ctx := request.WithRequestInfo(context.Background(), &request.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: apiextensionsv1.GroupName,
		APIVersion: "v1", Resource: "customresourcedefinitions", Name: c.Name,
	})
	crdstrategy.PrepareForCreate(internal)
	for _, e := range validation.ValidateCustomResourceDefinition(ctx, internal) {
		pos, where := v.locate(k, e.Field)
		diags.Errorf(pos, "the API server would reject CRD %s%s", c.Name, where).Note("%s", Describe(e))
	}
	for _, w := range crdstrategy.WarningsOnCreate(internal) {
		diags.Warnf(k.Pos(), "the API server warns about CRD %s", c.Name).Note("%s", w)
	}
}

// Describe renders a validation error like field.Error does, but leaves out
// bad values that are whole structs (a CEL rule's every setting), which only
// bury the detail. The checker words the API server's update errors with it.
func Describe(e *field.Error) string {
	switch e.BadValue.(type) {
	case nil, string, bool, int, int32, int64, float64, []string:
		return e.Error()
	}
	if e.Detail == "" {
		return e.Field + ": " + e.Type.String()
	}
	return e.Field + ": " + e.Type.String() + ": " + e.Detail
}

var segmentRE = regexp.MustCompile(`^([^.\[]+)(?:\[([^\]]*)\])?`)

type segment struct{ name, index string }

func splitPath(p string) []segment {
	var out []segment
	for p != "" {
		m := segmentRE.FindStringSubmatch(p)
		if m == nil {
			break
		}
		out = append(out, segment{m[1], m[2]})
		p = strings.TrimPrefix(p[len(m[0]):], ".")
	}
	return out
}

// locate maps a field path of the CRD (spec.versions[1].schema.openAPIV3Schema
// .properties[spec].properties[replicas].default) to the Go declaration or
// marker comment that produced it, and describes it for the message.
func (v *validator) locate(k *model.Kind, path string) (token.Pos, string) {
	segs := splitPath(path)
	if len(segs) < 2 || segs[0].name != "spec" {
		return k.Pos(), ""
	}
	switch segs[1].name {
	case "conversion":
		return k.Conversion.Pos, ""
	case "versions":
		i, err := strconv.Atoi(segs[1].index)
		if err != nil || i < 0 || i >= len(k.Versions) {
			return k.Pos(), ""
		}
		return v.locateInVersion(k.Versions[i], segs[2:])
	default:
		return v.markerOnAnyVersion(k, "kubebuilder:resource"), ""
	}
}

func (v *validator) locateInVersion(ver *model.Version, segs []segment) (token.Pos, string) {
	where := " (" + ver.Kind.Name + " " + ver.Name + ")"
	set := v.m.Markers[ver.Package]
	if len(segs) == 0 {
		return ver.Pos(), where
	}
	switch segs[0].name {
	case "additionalPrinterColumns":
		return v.nthMarker(set.Comments[ver.Spec], "kubebuilder:printcolumn", segs[0].index, ver.Pos()), where
	case "selectableFields":
		return v.nthMarker(set.Comments[ver.Spec], "kubebuilder:selectablefield", segs[0].index, ver.Pos()), where
	case "subresources":
		return set.Find(ver.Spec, "kubebuilder:subresource"), where
	case "schema":
	default:
		return ver.Pos(), where
	}

	// Walk the schema's properties through the Go types that produced them.
	var cur types.Type = ver.Type
	pos := ver.Pos()
	comments := set.Comments[ver.Spec]
	jsonPath := ""
	for _, s := range segs[1:] {
		switch s.name {
		case "openAPIV3Schema":
			continue
		case "properties":
			f := model.FieldByJSONName(cur, s.index)
			if f == nil {
				return pos, where + jsonPathNote(jsonPath)
			}
			jsonPath += "." + s.index
			pos, cur = f.Pos(), f.Type()
			comments = v.fieldComments(f)
			continue
		case "items":
			cur = elem(cur)
			continue
		case "additionalProperties":
			if mp, ok := model.Deref(cur).Underlying().(*types.Map); ok {
				cur = mp.Elem()
			}
			continue
		case "x-kubernetes-validations":
			pos = v.nthMarker(comments, "kubebuilder:validation:XValidation", s.index, pos)
		case "default":
			pos = v.nthMarker(comments, "kubebuilder:default", "0", pos)
		}
		break
	}
	return pos, where + jsonPathNote(jsonPath)
}

func jsonPathNote(p string) string {
	if p == "" {
		return ""
	}
	return ", field " + strings.TrimPrefix(p, ".")
}

// fieldComments returns the marker comments of a struct field declared in a
// root package, or of the named type it has when the field itself has none.
func (v *validator) fieldComments(f *types.Var) []markers.Comment {
	var out []markers.Comment
	for _, set := range v.m.Markers {
		for node, cs := range set.Comments {
			af, ok := node.(*ast.Field)
			if !ok || fieldPos(af) != f.Pos() {
				continue
			}
			out = append(out, cs...)
		}
	}
	if named, ok := model.Deref(f.Type()).(*types.Named); ok {
		for _, set := range v.m.Markers {
			for node, cs := range set.Comments {
				ts, ok := node.(*ast.TypeSpec)
				if !ok || ts.Name.Pos() != named.Obj().Pos() {
					continue
				}
				out = append(out, cs...)
			}
		}
	}
	return out
}

func fieldPos(f *ast.Field) token.Pos {
	if len(f.Names) > 0 {
		return f.Names[0].Pos()
	}
	return f.Type.Pos()
}

// nthMarker returns the position of the index-th marker named name (or
// name:...) among comments, or def when there is none.
func (v *validator) nthMarker(comments []markers.Comment, name, index string, def token.Pos) token.Pos {
	n, err := strconv.Atoi(index)
	if err != nil {
		n = 0
	}
	for _, c := range comments {
		if cn := c.Name(); cn == name || strings.HasPrefix(cn, name+":") {
			if n == 0 {
				return c.Pos
			}
			n--
		}
	}
	return def
}

func (v *validator) markerOnAnyVersion(k *model.Kind, name string) token.Pos {
	for _, ver := range k.Versions {
		if pos := v.m.Markers[ver.Package].Find(ver.Spec, name); pos.IsValid() {
			return pos
		}
	}
	return k.Pos()
}

func elem(t types.Type) types.Type {
	switch u := model.Deref(t).Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return t
}
