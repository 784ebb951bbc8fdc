package conversion

import (
	"fmt"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
)

// TestBadValueNamesEachEnumValueOnce holds the narrowing check to one
// comparison per allowed value: an enum that lists "" meeting omitempty
// (ZeroOK), or a value listed twice, printed a repeated operand of &&,
// which go vet rejects in the generated code (random API seed 174312814).
func TestBadValueNamesEachEnumValueOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		chk  model.Guard
		want string
	}{
		{"enum with the zero, omitempty", model.Guard{Enum: []string{"a", "b", ""}, ZeroOK: true},
			`in.Count != "" && in.Count != "a" && in.Count != "b"`},
		{"enum with the zero", model.Guard{Enum: []string{"a", ""}},
			`in.Count != "a" && in.Count != ""`},
		{"a value twice", model.Guard{Enum: []string{"a", "a"}},
			`in.Count != "a"`},
		{"plain", model.Guard{Enum: []string{"a", "b"}, ZeroOK: true},
			`in.Count != "" && in.Count != "a" && in.Count != "b"`},
	} {
		got := fmt.Sprintf("%#v", badValue(&tc.chk, jen.Id("in").Dot("Count")))
		if got != tc.want {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", tc.name, got, tc.want)
		}
	}
}
