package v1

// LossSpec holds a pair for each way a direction can lose data.
type LossSpec struct {
	Kept    Kept          `json:"kept,omitempty"`
	Dropped Dropped       `json:"dropped,omitempty"`
	Pointer PointerHolder `json:"pointer,omitempty"`
	Opted   OptedHolder   `json:"opted,omitempty"`
	Written WrittenHolder `json:"written,omitempty"`
	Moved   MovedHolder   `json:"moved,omitempty"`
	Through ThroughHolder `json:"through,omitempty"`
	Whole   WholeHolder   `json:"whole,omitempty"`
	Many    ManyHolder    `json:"many,omitempty"`
	Carried CarriedHolder `json:"carried,omitempty"`
	Partly  PartlyHolder  `json:"partly,omitempty"`
}

type Kept struct {
	A string `json:"a,omitempty"`
}

type Dropped struct {
	A string `json:"a,omitempty"`
}

type PointerHolder struct {
	V int32 `json:"v,omitempty"`
}

type OptedHolder struct {
	A string `json:"a,omitempty"`
	B string `json:"b,omitempty"`
}

type WrittenHolder struct {
	A string `json:"a,omitempty"`
}

type MovedHolder struct {
	Net NetSpec `json:"net,omitempty"`
}

type NetSpec struct {
	Host  string `json:"host,omitempty"`
	Proto string `json:"proto,omitempty"`
}

type ThroughHolder struct {
	Net *ThroughNet `json:"net,omitempty"`
}

type ThroughNet struct {
	Host string `json:"host,omitempty"`
}

type WholeHolder struct {
	X string `json:"x,omitempty"`
}

// ManyHolder holds a list of Dropped.
type ManyHolder struct {
	Items []Dropped `json:"items,omitempty"`
}

type CarriedHolder struct {
	Size CarriedSize `json:"size,omitempty"`
}

type CarriedSize struct {
	Window string `json:"window,omitempty"`
	Note   string `json:"note,omitempty"`
}

type PartlyHolder struct {
	Size *PartlySize `json:"size,omitempty"`
}

type PartlySize struct {
	Note string `json:"note,omitempty"`
	Memo string `json:"memo,omitempty"`
}
