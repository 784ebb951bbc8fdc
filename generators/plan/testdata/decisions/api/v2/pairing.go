package v2

// PairingSpec has a field for each way a field finds its hub counterpart.
type PairingSpec struct {
	// Name pairs by its Go name.
	Name string `json:"name,omitempty"`
	// Title is v1's Label.
	// +crdforge:hubfield=Label
	Title string `json:"title,omitempty"`
	// Host moved into v1's Network.
	// +crdforge:hubfield=Network.Host
	Host string `json:"host,omitempty"`
	// Extra's fields are v1's PairingSpec's own.
	// +crdforge:hubfield=.
	Extra ExtraSpec `json:"extra,omitempty"`
	// OnlyHere has no counterpart.
	// +crdforge:nocounterpart
	OnlyHere string `json:"onlyHere,omitempty"`
	// Items reach Item.
	Items []Item `json:"items,omitempty"`
	// Gadget is a Foo here, a Bar in v1.
	Gadget Foo `json:"gadget,omitempty"`
}

// ExtraSpec converts whole into v1's PairingSpec.
type ExtraSpec struct {
	A string `json:"a,omitempty"`
	B string `json:"b,omitempty"`
}

// Item is an element of a list.
type Item struct {
	Name string `json:"name"`
}

// Foo is what v1 calls Bar.
type Foo struct {
	Name string `json:"name"`
}

// Orphan is a struct no field reaches: paired by name, as conversion-gen
// pairs it.
type Orphan struct {
	Name string `json:"name"`
}

type hidden struct {
	Name string
}

var _ = hidden{}
