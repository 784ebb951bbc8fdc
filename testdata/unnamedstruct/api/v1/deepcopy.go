package v1

// DeepCopyInto copies the set of observers, which controller-tools' deepcopy
// generator could not.
func (in *ShelfStatus) DeepCopyInto(out *ShelfStatus) {
	*out = *in
	if in.Seen != nil {
		out.Seen = make(map[string]struct{}, len(in.Seen))
		for k := range in.Seen {
			out.Seen[k] = struct{}{}
		}
	}
}
