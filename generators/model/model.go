// Package model is crdforge's one intermediate representation: groups, kinds
// and their versions in Kubernetes priority order, each kind's hub and storage
// version, its conversion settings, and the type pairs its conversions go
// through. Everything is resolved here, with positions, so that generators
// only print. The model is data: a Builder builds the kinds and versions, and
// generators/plan settles the conversions (the pairs, and how each field
// converts); what either needs only while building stays with them.
package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/settings"
	"github.com/crdforge/crdforge/markers"
)

// Model is what generators read.
type Model struct {
	// Dir is the directory crdforge runs in; output paths are relative to it.
	Dir string
	// ImportPath is Dir's import path.
	ImportPath string
	// Project is the DNS-label name that defaults derive from: the
	// kubebuilder project's name, or else the last element of ImportPath.
	Project string
	// Kubebuilder is the kubebuilder project crdforge runs in, nil outside
	// one. In one, the CRDs' conversion webhook defaults to the manager's
	// Service as kubebuilder scaffolds it, CA injection is left to
	// kubebuilder's kustomize replacements, and config/webhook stays
	// kubebuilder's.
	Kubebuilder *load.KubebuilderProject
	// ProjectService is, outside a kubebuilder project, the webhook Service
	// of the project's own deployment, which crdforge leaves alone and
	// writes none beside: the CRDs' conversion webhook defaults to it.
	ProjectService *load.ProjectService
	// Fset resolves every token.Pos in the model.
	Fset *token.FileSet
	// Roots are the loaded packages, sorted by import path.
	Roots []*loader.Package
	// Markers holds the markers of every root package, with positions.
	Markers map[*loader.Package]*markers.Set
	// Collector and Checker are controller-tools' marker collector and type
	// checker, shared by every generator that calls into controller-tools.
	// Collector is nil once a model for CRDs alone is built (see Schemas).
	Collector *ctmarkers.Collector
	Checker   *loader.TypeChecker
	// Schemas is controller-tools' CRD parser, holding the schema of every
	// type it has seen, for the builder and the plan: Builder.Finish drops
	// it (each kind has its CRD by then), and, in a model built for CRDs
	// alone (no conversions, deepcopy or webhook), the Collector too.
	Schemas *crd.Parser
	// Groups are sorted by name.
	Groups []*Group
	// Webhook is the module's conversion webhook, resolved when
	// Options.Webhook asks for it; nil when no kind converts through a
	// webhook, or when the kinds cannot share one.
	Webhook *Webhook

	// Pairs lists, for each spoke package, every type pair converted there
	// (each once, however many kinds reach it), in discovery order: those
	// kinds reach first, then same-named structs nothing reaches.
	Pairs map[*loader.Package][]*TypePair

	// OwnCopies lists, for each root package, sorted by name, the types whose
	// deepcopy methods crdforge writes itself, where controller-tools'
	// generator cannot (Options.DeepCopy).
	OwnCopies map[*loader.Package][]*OwnCopy

	// CopyRepairs lists, for each root package, the struct fields whose
	// copy controller-tools' generator writes wrong and crdforge writes
	// instead (Options.DeepCopy; miscopy.go).
	CopyRepairs map[*loader.Package][]*CopyRepair

	// Uncopyable lists, for each root package, sorted, the exported types
	// that copying is enabled for but that no deepcopy method can be
	// declared on (Options.DeepCopy): see uncopyable.
	Uncopyable map[*loader.Package][]string

	// TestFuncs are the top-level functions that each root's hand-written,
	// in-package test files declare: generated tests call an author's hooks
	// (conversionFillFuncs) when they exist.
	TestFuncs map[*loader.Package]map[string]bool

	// superseded are errors of the load that the model reports itself
	// (Supersedes).
	superseded map[errorRef]bool
}

// errorRef is one error of a loaded package: the i-th of its Errors.
type errorRef struct {
	pkg *packages.Package
	i   int
}

// Supersedes reports whether the i-th error of p is one that controller-tools
// recorded, without a position, for a problem the model reports itself at the
// markers involved: a kind with no storage version, or none served.
func (m *Model) Supersedes(p *packages.Package, i int) bool {
	return m.superseded[errorRef{p, i}]
}

// Group is an API group.
type Group struct {
	Name string
	// Kinds are sorted by name.
	Kinds []*Kind
}

// Kind is one GroupKind: one CRD.
type Kind struct {
	Group string
	Name  string
	// Versions are in Kubernetes version priority order, highest first.
	Versions []*Version
	// Storage is the storage version; Hub the hub of conversions. Either is
	// nil only when the model has errors.
	Storage *Version
	Hub     *Version
	// Conversion holds the kind's conversion settings, defaults applied.
	Conversion Conversion
	// Spokes are the versions other than the hub, in priority order, each
	// with the type pairs its conversions go through.
	Spokes []*Spoke
	// Internal is the unversioned package conversion-gen converts the
	// kind's versions through, if any: then crdforge converts nothing of
	// the kind (Spokes is empty) and leaves its conversions to
	// conversion-gen.
	Internal *InternalHub
	// HubMethod is the Hub method the author wrote on the hub's root type,
	// if any: then crdforge generates none.
	HubMethod *types.Func
	// CRD is the CRD as controller-tools builds it from the types and their
	// kubebuilder markers, before crdforge orders versions and adds the
	// conversion stanza. Generators must not modify it.
	CRD *apiextensionsv1.CustomResourceDefinition
	// DeprecatedFields are the fields +crdforge:deprecated markers
	// deprecate, by version in priority order (deprecatedfields.go).
	DeprecatedFields []*DeprecatedField
	// SchemaErrors says controller-tools reported errors, at their
	// positions, while building the schemas of the kind's group: the CRD is
	// incomplete (a float field has no type), and the API server's
	// validation of it would only repeat them.
	SchemaErrors bool
}

// Pos is the position diagnostics about the kind as a whole point at: its
// root type in the highest-priority version.
func (k *Kind) Pos() token.Pos {
	if len(k.Versions) == 0 {
		return token.NoPos
	}
	return k.Versions[0].Pos()
}

// Version is one version of a kind: its root type in one package.
type Version struct {
	Kind    *Kind
	Name    string
	Package *loader.Package
	// Spec is the root type's declaration; Type its type-checked form.
	Spec *ast.TypeSpec
	Type *types.Named

	Served             bool
	Storage            bool
	Deprecated         bool
	DeprecationWarning *string
}

// Pos is the position of the version's root type.
func (v *Version) Pos() token.Pos { return v.Spec.Name.Pos() }

// Conversion is how the API server converts a kind between versions.
type Conversion struct {
	// Strategy is None or Webhook.
	Strategy string
	// Explicit says a +crdforge:conversion marker chose the strategy.
	Explicit bool
	// Configured says a +crdforge:webhook or +crdforge:certmanager marker
	// configures the kind's webhook: its author means it to convert.
	Configured bool
	// CommittedWebhook is the committed CRD, relative to the run's
	// directory, that converts the kind through a webhook, or "": the
	// kind converted before this run, and a cluster may store its objects
	// at two versions that clients read through the webhook.
	CommittedWebhook string
	// Pos is the +crdforge:conversion or +crdforge:webhook marker that
	// configured the conversion, or the kind's position.
	Pos     token.Pos
	Service Service
	// InjectCA adds cert-manager's inject-ca-from annotation, naming
	// Certificate (<namespace>/<name>).
	InjectCA    bool
	Certificate string
	// Defaulted says for which arguments of +crdforge:webhook Service holds
	// what only crdforge's own deployment serves: no marker set them, nor
	// the project's own service.yaml, nor is it a kubebuilder project's
	// manager. DefaultCertificate says Certificate is named after that
	// Service by default, as crdforge's deployment names its own.
	Defaulted          WebhookArgs
	DefaultCertificate bool
}

// WebhookArgs flags arguments of +crdforge:webhook.
type WebhookArgs struct {
	ServiceName, Namespace, Port bool
}

// Names lists the flagged arguments as the marker names them, in its order.
func (a WebhookArgs) Names() []string {
	var out []string
	for _, arg := range []struct {
		flagged bool
		name    string
	}{{a.ServiceName, "serviceName"}, {a.Namespace, "namespace"}, {a.Port, "port"}} {
		if arg.flagged {
			out = append(out, arg.name)
		}
	}
	return out
}

// Service is the conversion webhook's Service.
type Service struct {
	Name      string
	Namespace string
	Path      string
	Port      int32
}

// ConversionReviewVersions are the ConversionReview versions crdforge's
// webhook understands, preferred first.
var ConversionReviewVersions = []string{"v1", "v1beta1"}

// floatAdvice ends the error controller-tools' schema parser records at a
// float32 or float64 field (crd/schema.go, builtinToType). It names
// controller-gen's option; crdforge's flag is --allow-dangerous-types.
//
// The error is matched by its text: controller-tools makes it with
// errors.New, and by the time it reaches crdforge it is a packages.Error
// whose Msg is all there is (no type, no sentinel to compare with). Should
// controller-tools reword it, the message passes through unchanged, and
// TestGoldenErrors' err_float case fails, which is the cue to update this.
const floatAdvice = "re-run with crd:allowDangerousTypes=true"

// Reword returns the message to report for the i-th error of p, and its
// notes: its own, but controller-tools' float error ("found float, the usage
// of which is highly discouraged, as support for them varies ... If you are
// really sure you want to use them, <advice>") split into a headline, its
// reason and crdforge's flag in place of controller-gen's option.
func (m *Model) Reword(p *packages.Package, i int) (string, []diag.Note) {
	msg := p.Errors[i].Msg
	if !strings.HasSuffix(msg, floatAdvice) {
		return msg, nil
	}
	msg = strings.TrimSuffix(msg, floatAdvice)
	if sure := strings.LastIndex(msg, "If you"); sure >= 0 {
		msg = strings.TrimSpace(msg[:sure])
	}
	head, why, _ := strings.Cut(msg, ", as ")
	notes := []diag.Note{}
	if why != "" {
		notes = append(notes, diag.Note{Kind: diag.KindNote, Text: "as " + why})
	}
	notes = append(notes, diag.Note{Kind: diag.KindHelp, Text: "if you are sure you want floats, run crdforge generate with " + settings.AllowDangerousTypes.Flag()})
	return head, notes
}
