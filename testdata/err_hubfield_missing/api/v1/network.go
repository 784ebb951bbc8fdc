package v1

// Network is an address.
type Network struct {
	Host string `json:"host,omitempty"`
	Port int32  `json:"port,omitempty"`
}
