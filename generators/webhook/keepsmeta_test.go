package webhook

import (
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/crdforge/crdforge/generators/model"
)

// TestKeepsMeta: a version's codec decodes of the metadata only the stash
// (DecodeData) where every conversion of the version copies
// the metadata, as generated ones do: the hub, and a spoke whose entry
// points and root Convert_ functions are all generated; not where the
// author wrote one of them, which may read any metadata field, nor for a
// type without an embedded ObjectMeta.
func TestKeepsMeta(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, "./testdata/shapes")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading testdata/shapes: %v", err)
	}
	scope := pkgs[0].Types.Scope()
	root := scope.Lookup("Root").Type().(*types.Named)
	spec := scope.Lookup("Spec").Type().(*types.Named)
	written := types.NewFunc(token.NoPos, pkgs[0].Types, "Convert_v1_Root_To_v2_Root", nil)
	for _, tc := range []struct {
		name  string
		edit  func(*model.Spoke)
		typ   *types.Named
		spoke bool
	}{
		{"generated", func(*model.Spoke) {}, root, true},
		{"hand-written ConvertTo", func(s *model.Spoke) { s.ConvertTo = written }, root, false},
		{"hand-written ConvertFrom", func(s *model.Spoke) { s.ConvertFrom = written }, root, false},
		{"another framework's methods", func(s *model.Spoke) { s.Foreign = written }, root, false},
		{"no entry points", func(s *model.Spoke) { s.NoEntryPoints = true }, root, false},
		{"hand-written Convert_ to the hub", func(s *model.Spoke) { s.Pairs[0].ToHub.Manual = written }, root, false},
		{"hand-written Convert_ to the spoke", func(s *model.Spoke) { s.Pairs[0].ToSpoke.Manual = written }, root, false},
		{"opted out", func(s *model.Spoke) { s.Pairs[0].OptOut = true }, root, false},
		{"metadata not assigned", func(s *model.Spoke) { s.Pairs[0].Meta = nil }, root, false},
		{"no ObjectMeta", func(*model.Spoke) {}, spec, false},
	} {
		k := &model.Kind{}
		hub := &model.Version{Kind: k, Name: "v1", Type: tc.typ}
		v2 := &model.Version{Kind: k, Name: "v2", Type: tc.typ}
		pair := &model.TypePair{ToHub: &model.Direction{}, ToSpoke: &model.Direction{}, Meta: []string{"ObjectMeta"}}
		s := &model.Spoke{Version: v2, Pairs: []*model.TypePair{pair}}
		k.Versions, k.Hub, k.Spokes = []*model.Version{hub, v2}, hub, []*model.Spoke{s}
		tc.edit(s)
		if got := keepsMeta(k, v2); got != tc.spoke {
			t.Errorf("%s: keepsMeta(spoke) = %v, want %v", tc.name, got, tc.spoke)
		}
		if got, want := keepsMeta(k, hub), tc.typ == root; got != want {
			t.Errorf("%s: keepsMeta(hub) = %v, want %v", tc.name, got, want)
		}
	}
}
