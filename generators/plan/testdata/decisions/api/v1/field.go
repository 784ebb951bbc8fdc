package v1

import (
	"github.com/crdforge/crdforge/generators/plan/testdata/decisions/api/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Color is v1's enum.
type Color string

// FieldSpec: what each v2 field of FieldSpec converts to.
type FieldSpec struct {
	Same    string          `json:"same,omitempty"`
	Color   Color           `json:"color,omitempty"`
	Wide    int64           `json:"wide,omitempty"`
	Ptr     string          `json:"ptr,omitempty"`
	Tags    []string        `json:"tags,omitempty"`
	ByName  map[string]Item `json:"byName,omitempty"`
	Pair    [2]Color        `json:"pair,omitempty"`
	Since   metav1.Time     `json:"since,omitempty"`
	Item    Item            `json:"item,omitempty"`
	Window  common.Window   `json:"window,omitempty"`
	Ref     Ref             `json:"ref,omitempty"`
	Timeout metav1.Duration `json:"timeout,omitempty"`
}
