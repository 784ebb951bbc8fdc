package output

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMergeBlock: the block is appended once, replaced in place afterwards,
// and nothing else in the file changes.
func TestMergeBlock(t *testing.T) {
	block := []byte(BlockBegin + ": x\n/webhook\n" + BlockEnd + "\n")
	newer := []byte(BlockBegin + ": x\n/webhook\n/other\n" + BlockEnd + "\n")
	for _, tt := range []struct{ name, old, block, want string }{
		{"empty file", "", string(block), string(block)},
		{"appended after the user's lines", "bin/\n*.out", string(block), "bin/\n*.out\n\n" + string(block)},
		{"already there", "bin/\n\n" + string(block) + "# mine\n", string(block), "bin/\n\n" + string(block) + "# mine\n"},
		{"replaced in place", "bin/\n" + string(block) + "# mine\n", string(newer), "bin/\n" + string(newer) + "# mine\n"},
	} {
		if got := string(MergeBlock([]byte(tt.old), []byte(tt.block))); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestPlanMergesBlocks: Plan never refuses a user's file for a block, and
// reports no change once the block is in.
func TestPlanMergesBlocks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".gitignore")
	if err := os.WriteFile(p, []byte("secrets/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := File{Path: ".gitignore", Block: true, Content: []byte(BlockBegin + "\n/webhook\n" + BlockEnd + "\n")}
	changes, err := Plan(dir, []File{f})
	if err != nil || len(changes) != 1 {
		t.Fatalf("Plan: %v, %d changes", err, len(changes))
	}
	if err := Write(changes); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if want := "secrets/\n\n" + string(f.Content); string(b) != want {
		t.Errorf(".gitignore is %q, want %q", b, want)
	}
	if changes, err := Plan(dir, []File{f}); err != nil || len(changes) != 0 {
		t.Errorf("second Plan: %v, %d changes; want none", err, len(changes))
	}
}
