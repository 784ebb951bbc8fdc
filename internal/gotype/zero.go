package gotype

import "go/types"

// ZeroMethod reports whether encoding/json's omitzero calls an IsZero()
// bool of a t: one in the method set of t or, for a t that is no pointer
// or interface, of *t. A pointer's method set holds its element's methods
// but a named pointer type, or a pointer to a pointer, has none; an
// IsZero of another signature is not called.
func ZeroMethod(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return isZeroer(t)
	}
	return isZeroer(types.NewPointer(t))
}

// isZeroer reports whether t's method set holds IsZero() bool.
func isZeroer(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, false, nil, "IsZero")
	f, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := f.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
}
