package runcache

// Inputs is what a run read from the disk beyond the trees its patterns
// name (those Record walks itself: walk.go).
type Inputs struct {
	// PackageDirs are directories of packages the run loaded: their
	// listing and their Go files (with any go.mod and go.sum) are inputs.
	// The loader knows them (load.Sources): the roots and every package of
	// the main module, or of a module replaced by a directory, that they
	// import.
	PackageDirs []string
	// Files are single files the run read or looked for; one that was
	// absent must stay absent.
	Files []string
	// Dirs are directories whose listing alone matters: where generators
	// own files, so that a file appearing there (a stale output to remove,
	// a user's file to keep) is seen.
	Dirs []string
}
