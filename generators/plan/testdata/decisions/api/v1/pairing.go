package v1

// PairingSpec: each field is where a v2 field of PairingSpec goes.
type PairingSpec struct {
	Name    string       `json:"name,omitempty"`
	Label   string       `json:"label,omitempty"`
	Network *NetworkSpec `json:"network,omitempty"`
	A       string       `json:"a,omitempty"`
	B       string       `json:"b,omitempty"`
	Items   []Item       `json:"items,omitempty"`
	Gadget  Bar          `json:"gadget,omitempty"`
}

// NetworkSpec is where v2's Host moved.
type NetworkSpec struct {
	Host string `json:"host,omitempty"`
}

// Item is an element of a list.
type Item struct {
	Name string `json:"name"`
}

// Bar is what v2's Foo is called here.
type Bar struct {
	Name string `json:"name"`
}

// Orphan is a struct no field reaches.
type Orphan struct {
	Name string `json:"name"`
}

type hidden struct {
	Name string
}

var _ = hidden{}
