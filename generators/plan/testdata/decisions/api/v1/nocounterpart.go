package v1

// NoCounterpartSpec: v2's fields without a counterpart, and v1's.
type NoCounterpartSpec struct {
	Name   string     `json:"name,omitempty"`
	Backup BackupSpec `json:"backup,omitempty"`
	Extra  string     `json:"extra,omitempty"`
	// +crdforge:nocounterpart
	Kept    string      `json:"kept,omitempty"`
	Storage StorageSpec `json:"storage,omitempty"`
}

// BackupSpec is where v2's BackupSchedule belongs.
type BackupSpec struct {
	Schedule string `json:"schedule,omitempty"`
}

// StorageSpec holds SizeGB, which v2 has at the top.
type StorageSpec struct {
	SizeGB int32 `json:"sizeGB,omitempty"`
}
