package load

import (
	"reflect"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
)

func TestTypeError(t *testing.T) {
	for _, tc := range []struct {
		name, msg, head string
		notes           []diag.Note
	}{
		{"short", "undefined: int32x", "undefined: int32x", nil},
		{
			"long, with the methods compared",
			"cannot use &Gadget{} (value of type *Gadget) as admission.Validator value in variable declaration: *Gadget does not implement admission.Validator (wrong type for method ValidateCreate)\n\t\thave ValidateCreate() error\n\t\twant ValidateCreate() (admission.Warnings, error)",
			"*Gadget does not implement admission.Validator (wrong type for method ValidateCreate)",
			[]diag.Note{
				{Kind: diag.KindNote, Text: "cannot use &Gadget{} (value of type *Gadget) as admission.Validator value in variable declaration"},
				{Kind: diag.KindNote, Text: "have ValidateCreate() error"},
				{Kind: diag.KindHelp, Text: "want ValidateCreate() (admission.Warnings, error)"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, notes := typeError(tc.msg)
			if head != tc.head || !reflect.DeepEqual(notes, tc.notes) {
				t.Errorf("typeError = %q, %v; want %q, %v", head, notes, tc.head, tc.notes)
			}
		})
	}
}
