package v1

// Net is an address.
type Net struct {
	// Host is the host name.
	Host string `json:"host,omitempty"`
	// Port is the port.
	Port int32 `json:"port,omitempty"`
	// Proto is new in v1.
	Proto string `json:"proto,omitempty"`
}
