package model

import (
	"go/token"
	"go/types"
	"strings"
)

// Spoke is one non-hub version of a kind with every type pair reachable
// from its root type.
type Spoke struct {
	Version *Version
	// Pairs starts with the root pair; the other pairs it reaches follow in
	// discovery order. Kinds that share types share their pairs.
	Pairs []*TypePair
	// ConvertTo and ConvertFrom are the entry points the author wrote on
	// the spoke's root type, if any; they take over from generated ones.
	ConvertTo, ConvertFrom *types.Func
	// Foreign is the first of them that is not controller-runtime's
	// (another framework's, such as knative's ConvertTo(ctx,
	// apis.Convertible)), if any: the spoke then implements no
	// conversion.Convertible, and crdforge cannot write one beside it.
	Foreign *types.Func
	// NoEntryPoints says crdforge writes neither ConvertTo nor ConvertFrom
	// for the spoke: its kind's strategy is None (plan.settleEntryPoints).
	NoEntryPoints bool
}

// TypePair is a spoke type and the hub type it converts to and from. The
// root pair is the kind's root types; the others are reachable from it.
// Everything that depends on the way a conversion goes lives in its two
// Directions.
type TypePair struct {
	Spoke, Hub *types.Named
	// SpokeVersion and HubVersion name the two versions.
	SpokeVersion, HubVersion *Version
	// ToHub converts the spoke type to the hub type; ToSpoke the other way.
	// Each is the other's Reverse.
	ToHub, ToSpoke *Direction
	// Mappings pair spoke fields with hub fields, in the spoke's field order.
	Mappings []*Mapping
	// OptOut is set by +k8s:conversion-gen=false on either type: no function
	// is generated, the author writes both.
	OptOut bool
	// Meta names the embedded metav1 ObjectMeta and ListMeta that both
	// structs have, which autoConvert_ assigns as conversion-gen does (the
	// kind's root its ObjectMeta, a list its ListMeta); TypeMeta is left to
	// whoever asked for the conversion.
	Meta []string
	// Pos is the spoke type's declaration.
	Pos token.Pos
}

// Root reports whether the pair is the kind's root types.
func (p *TypePair) Root() bool {
	return p.Spoke.Obj() == p.SpokeVersion.Type.Obj()
}

// Directions lists the pair's two directions, to the hub first.
func (p *TypePair) Directions() []*Direction { return []*Direction{p.ToHub, p.ToSpoke} }

// Loss says whether a direction can drop data, and how generated code finds
// out that it did.
type Loss int

const (
	// LossNone means the destination holds everything the source can.
	LossNone Loss = iota
	// LossChecked means the types alone tell which data is lost; a generated
	// lossy_ function checks the source's fields.
	LossChecked
	// LossRoundTrip means only converting back tells (a hand-written function, an
	// opt-out, a struct converted whole into its enclosing hub struct).
	LossRoundTrip
)

// Direction is one way of converting a type pair: from the From type of
// FromVersion to the To type of ToVersion.
type Direction struct {
	Pair *TypePair
	// Reverse is the opposite direction of the same pair.
	Reverse *Direction
	// From and To are the source and destination types.
	From, To *types.Named
	// FromVersion and ToVersion are the versions they belong to.
	FromVersion, ToVersion *Version
	// Func, AutoFunc and LossyFunc name the conversion-gen style public
	// Convert_ function, the generated autoConvert_ that a hand-written
	// Convert_ calls, and the generated check for lost data.
	Func, AutoFunc, LossyFunc string
	// Manual is the hand-written Convert_ function found in the spoke
	// package, if any; it takes over the generated one.
	Manual *types.Func
	// WrongSignature says a hand-written Func exists with the wrong
	// signature: reported as such, not as missing.
	WrongSignature bool
	// Fields convert the pair's mappings in this direction, in the spoke's
	// field order.
	Fields []*FieldConv
	// SourceOnly are fields of the source struct with no counterpart.
	SourceOnly []*types.Var
	// ByHand are the SourceOnly fields a hand-written Convert_ (Manual)
	// must carry itself, unless +crdforge:nocounterpart says they live in
	// the source's version only: crdforge cannot see whether it does, so
	// the generated tests check that each changes the destination
	// (plan.settleByHand). Only a direction to the hub has any.
	ByHand []*types.Var
	// NestedSourceOnly are source fields with no counterpart inside source
	// structs that destination fields moved out of in part (Network.Proto
	// when only Network.Host and Network.Port have spoke counterparts), as
	// paths from the source struct. Only the direction to the spoke has any.
	NestedSourceOnly [][]*types.Var
	// NilThrough are the pointer fields on the way to moved fields (Network
	// when it is *NetworkSpec), as paths from the source struct: converting
	// the other way always sets them, so a nil one is lost. Only the
	// direction to the spoke has any.
	NilThrough [][]*types.Var
	// Loss says whether and how the direction can drop data.
	Loss Loss
	// LossyCalled says something calls the LossChecked direction's
	// LossyFunc, which is generated only then (plan.settleLossyCalls).
	LossyCalled bool
	// SameLayout says the two structs have one memory layout and the
	// conversion would only copy every field: it reads the source as the
	// destination type through unsafe.Pointer, and its result shares the
	// source's memory (plan.settleLayout).
	SameLayout bool
	// Needed says a generated ConvertTo or ConvertFrom depends on the
	// direction's Convert_, directly or through fields: then its functions
	// are generated even when they cannot compile until the author writes
	// what a warning asks for, as conversion-gen does.
	Needed bool
	// Emit says the direction's autoConvert_ (and Convert_, unless
	// hand-written or needing hand-written parts) are generated: when
	// needed, or else when everything they call exists, so that a package
	// whose entry points are hand-written still builds and its author can
	// call them.
	Emit bool
	// WantedBy are the kinds served with strategy None until the
	// direction's hand-written Convert_ exists (plan.settleEntryPoints).
	WantedBy []*Kind
}

// Lossy reports whether the direction can drop data.
func (d *Direction) Lossy() bool { return d.Loss != LossNone }

// Describe names the direction for messages: "v1alpha1 to v1".
func (d *Direction) Describe() string { return d.FromVersion.Name + " to " + d.ToVersion.Name }

// ReachTestName is the generated test that checks that each of ByHand
// changes the destination: TestReaches_v1alpha1_OrderSpec_To_v1_OrderSpec.
func (d *Direction) ReachTestName() string {
	return "TestReaches_" + strings.TrimPrefix(d.Func, "Convert_")
}

// NeedsManual lists the fields of the direction that need a hand-written
// function, with the reason.
func (d *Direction) NeedsManual() (fields []*FieldConv, reasons []string) {
	for _, f := range d.Fields {
		if f.Mapping.OptOut {
			continue
		}
		if ok, reason := f.Conv.Manual(); ok {
			fields = append(fields, f)
			reasons = append(reasons, reason)
		}
	}
	return fields, reasons
}

// Mapping pairs one spoke field with where it lives in the hub.
type Mapping struct {
	Spoke *types.Var
	// HubPath leads from the hub struct to the hub field, through nested
	// structs. It is empty exactly when Whole is set.
	HubPath []*types.Var
	// Whole says the spoke field's struct converts to the enclosing hub
	// struct itself (+crdforge:hubfield=.).
	Whole bool
	// ToHub and ToSpoke convert the field in each direction.
	ToHub, ToSpoke *FieldConv
	// OptOut is set by +k8s:conversion-gen=false on the field.
	OptOut bool
	// Pos is the spoke field's declaration.
	Pos token.Pos
}

// FieldConv is a mapping in one direction: the value at Source, a path of
// fields from the source struct, converts to the value at Dest, a path from
// the destination struct. An empty path is the struct itself (a Whole
// mapping).
type FieldConv struct {
	Mapping      *Mapping
	Source, Dest []*types.Var
	Conv         *Conv
	// Guard, when set, is what the destination's schema allows that the
	// source does not guarantee: generated code checks the value and fails
	// the conversion instead of writing one the API server would reject.
	Guard *Guard
	// Drop is what the conversion writes as nil because the JSON of one
	// side leaves it out (plan.settleDrops); DropLoses says it is the
	// destination's, where the source's JSON writes it: the direction
	// loses it.
	Drop      Drop
	DropLoses bool
	// LossCarried says that all Conv's pair loses the enclosing direction
	// carries itself, by fields moved out of it (+crdforge:hubfield=Size.Note
	// on a spoke's Note): the direction's check need not look into it
	// (plan.carriedLoss).
	LossCarried bool
}

// Drop is a set of values of a field that JSON writes under one version's
// tag and leaves out under the other's, reading the absent field back as
// nil (issue 58, item 5: tags: [] came back absent after v1 -> v1alpha1 ->
// v1 when v1's tag is omitzero and v1alpha1's omitempty). Generated
// conversions write nil for them, as JSON would read them back, so that
// the stash sees a loss in memory as the API server would in JSON, and a
// value the source's JSON never shows is no data to stash.
type Drop int

const (
	// DropNone says both sides' JSON write the same values.
	DropNone Drop = iota
	// DropEmpty says one side's JSON drops an empty, non-nil slice or map
	// ([], {}, a []byte's ""), which omitempty leaves out and reads back
	// as nil.
	DropEmpty
)

// DeclaredMethod returns the method name declared on t or *t in t's
// package, if any.
func DeclaredMethod(t *types.Named, name string) *types.Func {
	for i := range t.NumMethods() {
		if f := t.Method(i); f.Name() == name {
			return f
		}
	}
	return nil
}

// Generates reports whether crdforge generates the spoke's entry point for
// direction d (ConvertTo for the direction to the hub, ConvertFrom for the
// other): not when the author wrote it, nor when the root is opted out of
// generated conversion and no Convert_ function for d exists to call.
func (s *Spoke) Generates(d *Direction) bool {
	method := s.ConvertFrom
	if d == d.Pair.ToHub {
		method = s.ConvertTo
	}
	if method != nil || s.Foreign != nil || s.NoEntryPoints {
		return false
	}
	return !d.Pair.OptOut || d.Manual != nil
}

// Convertible reports whether the spoke's root type implements
// controller-runtime's conversion.Convertible once generated code is in:
// each entry point hand-written or generated.
func (s *Spoke) Convertible() bool {
	if s.Foreign != nil {
		return false
	}
	root := s.Pairs[0]
	return (s.ConvertTo != nil || s.Generates(root.ToHub)) && (s.ConvertFrom != nil || s.Generates(root.ToSpoke))
}
