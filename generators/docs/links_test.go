package docs

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// structOf declares a named struct in pkg whose fields are name/json-name
// pairs of type string, or of the given type when the name is in typed.
func structOf(pkg *types.Package, name string, fields [][2]string, typed map[string]types.Type) (*types.Named, map[string]*types.Var) {
	vars := map[string]*types.Var{}
	var list []*types.Var
	var tags []string
	for _, f := range fields {
		var t types.Type = types.Typ[types.String]
		if typed[f[0]] != nil {
			t = typed[f[0]]
		}
		v := types.NewField(token.NoPos, pkg, f[0], t, false)
		vars[f[0]] = v
		list = append(list, v)
		tags = append(tags, `json:"`+f[1]+`,omitempty"`)
	}
	obj := types.NewTypeName(token.NoPos, pkg, name, nil)
	return types.NewNamed(obj, types.NewStruct(list, tags), nil), vars
}

// direction pairs from and to, with reverse, for a spoke whose entry points
// are generated.
func directions(pair *model.TypePair, spoke, hub *model.Version) (toHub, toSpoke *model.Direction) {
	toHub = &model.Direction{Pair: pair, From: pair.Spoke, To: pair.Hub, FromVersion: spoke, ToVersion: hub, Func: "Convert_spoke_To_hub"}
	toSpoke = &model.Direction{Pair: pair, From: pair.Hub, To: pair.Spoke, FromVersion: hub, ToVersion: spoke, Func: "Convert_hub_To_spoke"}
	toHub.Reverse, toSpoke.Reverse = toSpoke, toHub
	pair.ToHub, pair.ToSpoke = toHub, toSpoke
	return toHub, toSpoke
}

// fixture is a Spec of a spoke (v1alpha1) and its hub (v1): title renamed
// displayName, host moved into endpoint.host, replicas narrowed, legacyID
// only in the spoke, color only in the hub, schedule converted by hand.
type fixture struct {
	spoke            *model.Spoke
	toHub, toSpoke   *model.Direction
	spokeF, hubF     map[string]*types.Var
	endpoint, hubSpc *types.Named
}

func newFixture() *fixture {
	sp, hp := types.NewPackage("example.com/v1alpha1", "v1alpha1"), types.NewPackage("example.com/v1", "v1")
	endpoint, endF := structOf(hp, "Endpoint", [][2]string{{"Host", "host"}}, nil)
	spokeSpec, spokeF := structOf(sp, "Spec", [][2]string{{"Title", "title"}, {"Host", "host"}, {"Replicas", "replicas"}, {"LegacyID", "legacyID"}, {"Schedule", "schedule"}}, nil)
	hubSpec, hubF := structOf(hp, "Spec", [][2]string{{"DisplayName", "displayName"}, {"Endpoint", "endpoint"}, {"Replicas", "replicas"}, {"Color", "color"}, {"Schedule", "schedule"}},
		map[string]types.Type{"Endpoint": endpoint})
	hubF["Endpoint.Host"] = endF["Host"]
	k := &model.Kind{Name: "Gizmo"}
	spokeV, hubV := &model.Version{Kind: k, Name: "v1alpha1"}, &model.Version{Kind: k, Name: "v1", Storage: true}
	k.Hub = hubV
	pair := &model.TypePair{Spoke: spokeSpec, Hub: hubSpec, SpokeVersion: spokeV, HubVersion: hubV}
	toHub, toSpoke := directions(pair, spokeV, hubV)
	f := &fixture{spoke: &model.Spoke{Version: spokeV, Pairs: []*model.TypePair{pair}}, toHub: toHub, toSpoke: toSpoke, spokeF: spokeF, hubF: hubF, endpoint: endpoint, hubSpc: hubSpec}
	assign := &model.Conv{Kind: model.ConvAssign}
	lo, hi := int64(1), int64(1000)
	f.mapField("Title", []string{"DisplayName"}, assign, nil)
	f.mapField("Host", []string{"Endpoint", "Endpoint.Host"}, assign, nil)
	f.mapField("Replicas", []string{"Replicas"}, assign, &model.Guard{Min: &lo, Max: &hi})
	f.mapField("Schedule", []string{"Schedule"}, &model.Conv{Kind: model.ConvManual, Reason: "string to struct"}, nil)
	toHub.SourceOnly = []*types.Var{spokeF["LegacyID"]}
	toSpoke.SourceOnly = []*types.Var{hubF["Color"]}
	return f
}

// mapField maps a spoke field to a hub path in both directions; guard
// narrows the direction to the hub.
func (f *fixture) mapField(spoke string, hubPath []string, c *model.Conv, guard *model.Guard) {
	var hub []*types.Var
	for _, h := range hubPath {
		hub = append(hub, f.hubF[h])
	}
	m := &model.Mapping{Spoke: f.spokeF[spoke], HubPath: hub}
	src := []*types.Var{f.spokeF[spoke]}
	m.ToHub = &model.FieldConv{Mapping: m, Source: src, Dest: hub, Conv: c, Guard: guard}
	m.ToSpoke = &model.FieldConv{Mapping: m, Source: hub, Dest: src, Conv: c}
	f.toHub.Fields = append(f.toHub.Fields, m.ToHub)
	f.toSpoke.Fields = append(f.toSpoke.Fields, m.ToSpoke)
}

// Each way a field goes between a spoke and its hub gets its own cell: the
// spoke's path where renamed or moved, the narrowing's range, the
// hand-written function, stashed, absent.
func TestSpokeCells(t *testing.T) {
	manual := types.NewFunc(token.NoPos, nil, "Convert_hub_To_spoke", nil)
	for _, tt := range []struct {
		name  string
		setup func(*fixture)
		hub   string // the hub field's path; "" to look up spoke, a field only the spoke has
		spoke string
		want  string
	}{
		{"a renamed field is its spoke name", nil, "displayName", "", "`title`"},
		{"a moved field is its spoke path", nil, "endpoint.host", "", "`host`"},
		{"a narrowed field says the range", nil, "replicas", "", "`replicas`, narrowed: 1 to 1000"},
		{"a field converted by hand names the function", nil, "schedule", "", "`schedule`, hand-written `Convert_spoke_To_hub`"},
		{"a hub field the spoke lacks is stashed", nil, "color", "", "stashed"},
		{"a struct the spoke's fields moved out of is absent", nil, "endpoint", "", "—"},
		{"a spoke field the hub lacks is stashed there", nil, "", "legacyID", "stashed"},
		{"without generated entry points nothing is stashed", func(f *fixture) { f.spoke.NoEntryPoints = true }, "color", "", "—"},
		{"a hand-written Convert_ takes over what its source alone has", func(f *fixture) { f.toSpoke.Manual = manual }, "color", "", "hand-written `Convert_hub_To_spoke`"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture()
			if tt.setup != nil {
				tt.setup(f)
			}
			ls := spokeLinks(f.spoke)
			var got Cell
			if tt.hub != "" {
				got = ls.hubCell(tt.hub) // the root pair is the spec: no spec. prefix
			} else {
				got = ls.spokeOnlyCell(tt.spoke)
			}
			if got.String() != tt.want {
				t.Errorf("cell = %q, want %q", got.String(), tt.want)
			}
		})
	}
}

// Below a field whose value converts whole, a hub field is the same field
// below the spoke's counterpart; below one the spoke lacks, it is lacked
// the same way; below one converted field by field, only its own link
// names it.
func TestCellsBelowAField(t *testing.T) {
	ls := &links{byHub: map[string]*link{
		"spec.parts":   {Hub: "spec.parts", Spoke: "spec.components", Cell: Cell{State: Present, Path: "spec.components"}},
		"spec.color":   {Hub: "spec.color", Cell: Cell{State: Stashed}},
		"spec.network": {Hub: "spec.network", Spoke: "spec.network", Cell: Cell{State: Present, Path: "spec.network"}, Recursed: true},
	}}
	for path, want := range map[string]string{
		"spec.parts[*].name": "`spec.components[*].name`",
		"spec.color.shade":   "stashed",
		"spec.network.proto": "—",
		"status.ready":       "—",
	} {
		if got := ls.hubCell(path).String(); got != want {
			t.Errorf("hubCell(%s) = %q, want %q", path, got, want)
		}
	}
}

// A list's items follow the list, and a field's fields follow it, before
// the next field.
func TestPathOrder(t *testing.T) {
	for _, tt := range [][2]string{
		{"spec", "spec.a"},
		{"spec.parts", "spec.parts[*].name"},
		{"spec.parts[*].name", "spec.partsX"},
		{"spec.network.host", "spec.parts"},
	} {
		if comparePaths(tt[0], tt[1]) >= 0 {
			t.Errorf("%s sorts after %s", tt[0], tt[1])
		}
	}
}
