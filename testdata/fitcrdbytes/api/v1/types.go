package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PlanterSpec is the desired state of a Planter. Its CRD is over the
// fit-crd-bytes of .crdforge.yaml with every description in: crdforge
// leaves out the deepest first, the longest first among equals, and stops
// as soon as the file fits.
type PlanterSpec struct {
	// Soil is what the planter is filled with.
	Soil Soil `json:"soil"`
	// Plants are what grows in it.
	// +optional
	Plants []Plant `json:"plants,omitempty"`
	// Location is where the planter stands, in the gardener's own words: the
	// description of a field at the first level, long, but shallow, so it is
	// among the last to go.
	// +optional
	Location string `json:"location,omitempty"`
}

// Soil is what a planter is filled with.
type Soil struct {
	// Kind is the soil's kind: loam, clay, sand or a mix of them, as the bag
	// it came in says.
	Kind string `json:"kind"`
	// Litres is how much soil there is.
	Litres int32 `json:"litres"`
}

// Plant is one plant in a planter.
type Plant struct {
	// Name is the plant's name.
	Name string `json:"name"`
	// Care is how to look after it.
	// +optional
	Care Care `json:"care,omitempty"`
}

// Care is how to look after a plant.
type Care struct {
	// Water is how often to water the plant, in days between waterings, as
	// the label on its pot recommends for the season it is planted in.
	// +optional
	Water int32 `json:"water,omitempty"`
	// Light is how much light the plant wants: full sun, partial shade or
	// shade.
	// +optional
	Light string `json:"light,omitempty"`
	// Feed says when to feed it.
	// +optional
	Feed string `json:"feed,omitempty"`
}

// +kubebuilder:object:root=true

// Planter is a kind whose CRD is fitted into a number of bytes.
type Planter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PlanterSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// PlanterList is a list of Planters.
type PlanterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Planter `json:"items"`
}
