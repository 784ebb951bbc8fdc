package v2

import (
	"github.com/crdforge/crdforge/generators/plan/testdata/decisions/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Color is v2's enum.
type Color string

// FieldSpec has a field for each way a value converts.
type FieldSpec struct {
	Same    string          `json:"same,omitempty"`
	Color   Color           `json:"color,omitempty"`
	Wide    int32           `json:"wide,omitempty"`
	Ptr     *string         `json:"ptr,omitempty"`
	Tags    []string        `json:"tags,omitempty"`
	ByName  map[string]Item `json:"byName,omitempty"`
	Pair    [2]Color        `json:"pair,omitempty"`
	Since   metav1.Time     `json:"since,omitempty"`
	Item    Item            `json:"item,omitempty"`
	Window  Window          `json:"window,omitempty"`
	Ref     v3.Ref          `json:"ref,omitempty"`
	Timeout string          `json:"timeout,omitempty"`
}

// Window is v2's own copy of common.Window.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Convert_string_To_v1_Duration converts every string into a Duration.
func Convert_string_To_v1_Duration(in *string, out *metav1.Duration, s conversion.Scope) error {
	return nil
}

// Convert_v1_Duration_To_string converts every Duration into a string.
func Convert_v1_Duration_To_string(in *metav1.Duration, out *string, s conversion.Scope) error {
	return nil
}
