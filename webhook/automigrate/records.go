package automigrate

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// record is what a replica writes under its name in the state ConfigMap:
// the versions it converts, by group/Kind, and when it last said so.
type record struct {
	Kinds map[string][]string `json:"kinds"`
	At    time.Time           `json:"at"`
}

// converts reports whether r converts every version of versions of
// groupKind (group/Kind).
func (r record) converts(groupKind string, versions []string) bool {
	have := r.Kinds[groupKind]
	for _, v := range versions {
		if !slices.Contains(have, v) {
			return false
		}
	}
	return true
}

// writeRecord sets this replica's key of the ConfigMap with a merge patch:
// no read, and no conflict with the other replicas' keys.
func writeRecord(ctx context.Context, configMaps dynamic.ResourceInterface, state, replica string, r record) error {
	value, err := json.Marshal(r)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(map[string]any{"data": map[string]any{replica: string(value)}})
	if err != nil {
		return err
	}
	_, err = configMaps.Patch(ctx, state, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// dropRecord removes this replica's key, as it stops.
func dropRecord(ctx context.Context, configMaps dynamic.ResourceInterface, state, replica string) error {
	patch, err := json.Marshal(map[string]any{"data": map[string]any{replica: nil}})
	if err != nil {
		return err
	}
	_, err = configMaps.Patch(ctx, state, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// readRecords reads every replica's record; what does not parse is left
// out, as a replica that has not recorded.
func readRecords(ctx context.Context, configMaps dynamic.ResourceInterface, state string) (map[string]record, error) {
	cm, err := configMaps.Get(ctx, state, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	data, _, _ := unstructured.NestedStringMap(cm.Object, "data")
	out := map[string]record{}
	for name, v := range data {
		var r record
		if json.Unmarshal([]byte(v), &r) == nil {
			out[name] = r
		}
	}
	return out, nil
}
