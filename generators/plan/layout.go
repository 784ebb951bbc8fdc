package plan

import (
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
)

// Generated conversions share memory with their input wherever a plain copy
// is all a value needs, as conversion-gen's do: a value of one type is
// assigned to the same type, and a value of one version's struct is read as
// the other version's through unsafe.Pointer when the two structs have one
// memory layout and converting them field by field would only copy. A
// converted object then holds the source's slices, maps and pointers, and
// costs little more than the pointers it must allocate (a value that becomes
// a pointer).
//
// Reading memory as another type is only right when the field-by-field
// conversion it replaces would copy every byte as it is. conversion-gen
// checks the layouts, position by position, and gives up on any pair that
// has a hand-written conversion. crdforge's conversions do more than
// conversion-gen's: fields found by name or moved by +crdforge:hubfield,
// narrowing checks, data stashed for fields without a counterpart. So a
// pair shares a layout here only when both hold:
//   - the two structs are the same but for the versions of the types they
//     name: the same fields in the same order, with the same names and
//     tags, each converting into its peer by a plain copy (SameMemory) with
//     no check;
//   - no conversion of the pair is hand-written or opted out.
//
// A direction that drops data is never one of these: every way crdforge
// knows to lose data (a field without a counterpart, a moved field, a
// pointer becoming a value, a hand-written function) breaks one of the
// conditions. A kind's root never is either:
// its embedded TypeMeta and ObjectMeta have no field mapping (the
// conversion leaves TypeMeta to the caller).

// settleLayout decides every direction's SameLayout. Pairs refer to each
// other, in cycles too (a struct that holds a list of itself): starting from
// "every pair shares its layout" and taking back each that fails until
// nothing changes gives the largest consistent answer, which is right for
// recursive types, as conversion-gen's cycle rule is.
func settleLayout(pairs []*model.TypePair) {
	for _, tp := range pairs {
		for _, d := range tp.Directions() {
			d.SameLayout = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if d.SameLayout && !sameLayout(d) {
					d.SameLayout, changed = false, true
				}
			}
		}
	}
}

// sameLayout reports whether d's structs have one memory layout and d's
// generated conversion would only copy every field, given what is decided of
// the pairs its fields go through.
func sameLayout(d *model.Direction) bool {
	// A hand-written conversion between the two types, either way, exists
	// because they differ in meaning if not in shape, as conversion-gen has
	// it; an opted-out pair or field is the author's to convert.
	if d.Pair.OptOut || d.Manual != nil || d.Reverse.Manual != nil {
		return false
	}
	from, ok1 := d.From.Underlying().(*types.Struct)
	to, ok2 := d.To.Underlying().(*types.Struct)
	if !ok1 || !ok2 || from.NumFields() != to.NumFields() || len(d.Fields) != from.NumFields() {
		return false // a field without a counterpart, or metadata
	}
	for i, fc := range d.Fields {
		f, t := from.Field(i), to.Field(i)
		if f.Name() != t.Name() || from.Tag(i) != to.Tag(i) {
			return false
		}
		// The i-th field converts into the i-th, itself, and only by copying.
		if len(fc.Source) != 1 || len(fc.Dest) != 1 || fc.Source[0] != f || fc.Dest[0] != t ||
			fc.Mapping.OptOut || fc.Guard != nil || !fc.Conv.SameMemory() {
			return false
		}
	}
	return true
}
