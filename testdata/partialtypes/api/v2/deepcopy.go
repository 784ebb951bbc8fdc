package v2

// DeepCopyInto copies the spec by assignment: a probe's last address, a
// netip.Addr, is a value that copies whole, though not as controller-gen
// sees it (it holds a pointer, to an interned zone).
func (in *MonitorSpec) DeepCopyInto(out *MonitorSpec) { *out = *in }
