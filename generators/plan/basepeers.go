package plan

import (
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// conversion-gen pairs a package's types with those of its peers: the
// packages its +k8s:conversion-gen tag names (a hub), then its base peers,
// metav1 first. A struct with no namesake in the hub but one in metav1 is
// paired with metav1's: a provider that keeps Cluster API's old Condition
// and ObjectMeta itself gets autoConvert_v1alpha4_Condition_To_v1_Condition
// and autoConvert_v1_ObjectMeta_To_v1alpha4_ObjectMeta, and its
// hand-written Convert_ functions (which conversion-gen asked for, the
// structs differing) call them. crdforge pairs those structs the same way,
// so that such code builds on its output: each spoke package gets one more
// pairer, whose hub is metav1, holding only those pairs.

// basePeerName is how messages name metav1 as a peer, the way they name a
// version.
const basePeerName = "metav1"

// basePeerPairers returns, for every spoke package of pairers that imports
// metav1, a pairer of its structs with metav1's namesakes that no hub of
// the package declares.
func (pl *planner) basePeerPairers(pairers []*pairer, diags *diag.List) []*pairer {
	var spokes []*model.Version
	hubNames := map[*loader.Package]map[string]bool{}
	for _, p := range pairers {
		names := hubNames[p.spoke.Package]
		if names == nil {
			names = map[string]bool{}
			hubNames[p.spoke.Package] = names
			spokes = append(spokes, p.spoke)
		}
		for _, name := range p.hub.Package.Types.Scope().Names() {
			names[name] = true
		}
	}
	var out []*pairer
	for _, spoke := range spokes {
		meta := spoke.Package.Imports()[metav1Path]
		if meta == nil || meta.Types == nil {
			continue
		}
		p := pl.newPairer(spoke, &model.Version{Name: basePeerName, Package: meta}, diags)
		p.hubDeclares = hubNames[spoke.Package]
		// metav1's own Convert_ functions copy a value to itself (Time to
		// Time) or are the pointer shapes asConversionGen knows: a field of
		// one type is assigned here as in every other pairer.
		p.funcs = pl.handWrittenFuncs(slices.DeleteFunc(pl.peers(spoke, p.hub), func(pkg *loader.Package) bool { return pkg == meta })...)
		out = append(out, p)
	}
	return out
}
