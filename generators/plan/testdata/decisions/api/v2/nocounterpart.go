package v2

// NoCounterpartSpec has fields v1 lacks.
type NoCounterpartSpec struct {
	Name string `json:"name,omitempty"`
	// BackupSchedule is v1's Backup.Schedule, in other words.
	BackupSchedule string `json:"backupSchedule,omitempty"`
	// Sizegb is v1's Storage.SizeGB, the same name in a nested struct.
	Sizegb int32 `json:"sizegb,omitempty"`
	// Note has nothing like it in v1.
	Note string `json:"note,omitempty"`
	// Legacy lives in v2 only, as its marker says.
	// +crdforge:nocounterpart
	Legacy string `json:"legacy,omitempty"`
}
