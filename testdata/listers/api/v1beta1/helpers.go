package v1beta1

import "k8s.io/apimachinery/pkg/labels"

// FleetLister is what Members needs of an informer's lister. The package
// enables deepcopy for every type, this interface included: no method can
// be declared on it, so it gets none.
type FleetLister interface {
	List(selector labels.Selector) ([]*Fleet, error)
}

// Members returns the fleets whose labels the selector matches.
func Members(lister FleetLister, selector labels.Selector) ([]string, error) {
	fleets, err := lister.List(selector)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(fleets))
	for _, f := range fleets {
		names = append(names, f.Name)
	}
	return names, nil
}

// +k8s:deepcopy-gen=false

// Tracker remembers the fleets it has seen; it holds a lister and opts out
// of deepcopy.
type Tracker struct {
	Lister FleetLister
	seen   map[string]bool
}
