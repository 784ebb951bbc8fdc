package v1beta1

import (
	"strings"

	"github.com/crdforge/crdforge/testdata/internalhub/api/kitchen"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1beta1_RecipeSpec_To_kitchen_RecipeSpec splits the method into
// steps, which conversion-gen cannot do.
func Convert_v1beta1_RecipeSpec_To_kitchen_RecipeSpec(in *RecipeSpec, out *kitchen.RecipeSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_RecipeSpec_To_kitchen_RecipeSpec(in, out, s); err != nil {
		return err
	}
	out.Steps = nil
	if in.Method != "" {
		out.Steps = strings.Split(in.Method, "\n")
	}
	return nil
}

// Convert_kitchen_RecipeSpec_To_v1beta1_RecipeSpec joins the steps into
// the method.
func Convert_kitchen_RecipeSpec_To_v1beta1_RecipeSpec(in *kitchen.RecipeSpec, out *RecipeSpec, s conversion.Scope) error {
	if err := autoConvert_kitchen_RecipeSpec_To_v1beta1_RecipeSpec(in, out, s); err != nil {
		return err
	}
	out.Method = strings.Join(in.Steps, "\n")
	return nil
}
