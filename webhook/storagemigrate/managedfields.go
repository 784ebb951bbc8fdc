package storagemigrate

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// PruneManagedFields drops the managedFields entries of obj whose
// apiVersion is not in served, and returns how many it dropped; entries
// without an apiVersion stay. When it would drop them all it leaves one
// empty entry: an empty list means "keep the stored managedFields" to the
// API server, a list of one empty entry means "clear them".
func PruneManagedFields(obj *unstructured.Unstructured, served map[string]struct{}) int {
	list, ok, _ := unstructured.NestedSlice(obj.Object, "metadata", "managedFields")
	if !ok || len(list) == 0 {
		return 0
	}
	kept := make([]any, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		av, _ := m["apiVersion"].(string)
		if _, ok := served[av]; ok || av == "" {
			kept = append(kept, e)
		}
	}
	dropped := len(list) - len(kept)
	if dropped == 0 {
		return 0
	}
	if len(kept) == 0 {
		kept = []any{map[string]any{}}
	}
	_ = unstructured.SetNestedSlice(obj.Object, kept, "metadata", "managedFields")
	return dropped
}
