// +crdforge:webhook:namespace=from-file-doc

// Package assoc places markers everywhere a marker can go.
package assoc

// +crdforge:certmanager:injectCA=false

// This comment group sits between the package marker above and a variable:
// neither makes the marker above a variable's.
var x = 1

// +kubebuilder:storageversion
// +crdforge:hub
// Doc is documented by the marker's group itself.
type Doc struct{}

// +crdforge:conversion:strategy=None

// Loose has its marker in the closest group above its doc comment.
type Loose struct {
	// +crdforge:hub
	Field string `json:"field"`

	// +crdforge:nope
	Other string `json:"other"`
}

type (
	// +crdforge:webhook:port=8443
	InBlock struct{}
)

func f() {
	// +crdforge:whatever inside a function describes nothing
	_ = x
}
