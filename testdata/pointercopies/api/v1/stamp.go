package v1

// DeepCopyInto copies a stamp; written by hand, so controller-gen calls it
// and writes only DeepCopy.
func (in *Stamp) DeepCopyInto(out *Stamp) {
	*out = *in
	out.Refs = append([]string(nil), in.Refs...)
}
