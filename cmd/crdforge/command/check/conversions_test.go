package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// convCase is a few fields of WidgetSpec in v1alpha1 (the spoke) and v1
// (the hub, and the storage version), in the baseline and in the working
// tree, and the findings the field rules make of them: props are the spec
// properties the case owns; every existingFieldRemoval, fieldDataLoss and
// conversionTypeChange finding under them must be wanted. Sources write '
// for a backquote.
type convCase struct {
	name                     string
	props                    []string
	oldSpoke, spoke          string
	oldHub, hub              string
	oldTypes, types          string // in both packages
	want                     []convWant
	pathModeWouldSayDataLoss bool
}

type convWant struct {
	rule, version, path string
	// has is in the message; at, when set, is a line of the working tree's
	// package of version (or, with "hub:", the hub's) the finding points at.
	has, at string
}

var convCases = []convCase{
	{name: "json name changed in the spoke, same Go field: clients break, stored values survive",
		props:    []string{"name", "title"},
		oldSpoke: "Name string 'json:\"name,omitempty\"'", spoke: "Name string 'json:\"title,omitempty\"'",
		oldHub: "Name string 'json:\"name,omitempty\"'", hub: "Name string 'json:\"name,omitempty\"'",
		want: []convWant{{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.name",
			has: "renamed: v1alpha1 now serves it as ^.spec.title, converted to the same hub field ^.spec.name (v1), so stored values survive"}}},
	{name: "renamed through +crdforge:hubfield: the hub field holds the data",
		props:    []string{"owner", "contact", "maintainer"},
		oldSpoke: "// +crdforge:hubfield=Maintainer\nOwner string 'json:\"owner,omitempty\"'",
		spoke:    "// +crdforge:hubfield=Maintainer\nContact string 'json:\"contact,omitempty\"'",
		oldHub:   "Maintainer string 'json:\"maintainer,omitempty\"'", hub: "Maintainer string 'json:\"maintainer,omitempty\"'",
		want: []convWant{{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.owner",
			has: "renamed: v1alpha1 now serves it as ^.spec.contact, converted to the same hub field ^.spec.maintainer (v1)"}},
		pathModeWouldSayDataLoss: true},
	{name: "a field moved into a nested hub struct, removed from the spoke: the hub still holds it",
		props:    []string{"backupSchedule", "backup"},
		oldSpoke: "// +crdforge:hubfield=Backup.Schedule\nBackupSchedule string 'json:\"backupSchedule,omitempty\"'",
		spoke:    "",
		oldHub:   "Backup Backup 'json:\"backup,omitempty\"'", hub: "// +crdforge:nocounterpart\nBackup Backup 'json:\"backup,omitempty\"'",
		oldTypes: "// Backup says when.\ntype Backup struct {\n\tSchedule string 'json:\"schedule,omitempty\"'\n}\n",
		types:    "// Backup says when.\ntype Backup struct {\n\tSchedule string 'json:\"schedule,omitempty\"'\n}\n",
		want: []convWant{{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.backupSchedule",
			has: "v1 as ^.spec.backup.schedule still holds it: stored values are kept"}},
		pathModeWouldSayDataLoss: true},
	{name: "a spoke's stashed field removed: no version holds it",
		props:    []string{"legacy"},
		oldSpoke: "// +crdforge:nocounterpart\nLegacy string 'json:\"legacy,omitempty\"'", spoke: "",
		want: []convWant{
			{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.legacy"},
			{rule: "fieldDataLoss", version: "v1alpha1", path: "^.spec.legacy", has: "lived in the hub's stash annotation; no version holds it any more"},
		}},
	{name: "removed from the storage version, kept by the spoke: stored objects lose it",
		props:    []string{"zone"},
		oldSpoke: "Zone string 'json:\"zone,omitempty\"'", spoke: "// +crdforge:nocounterpart\nZone string 'json:\"zone,omitempty\"'",
		oldHub: "Zone string 'json:\"zone,omitempty\"'", hub: "",
		want: []convWant{
			{rule: "existingFieldRemoval", version: "v1", path: "^.spec.zone"},
			{rule: "fieldDataLoss", version: "v1", path: "^.spec.zone", has: "objects stored at v1 hold ^.spec.zone, which v1 no longer has: the API server prunes it as it reads them (v1alpha1 still has ^.spec.zone, but converts it to the hub's stash now, not to the field objects were stored with)"},
		}},
	{name: "renamed in the storage version: the rename does not move stored values",
		props:    []string{"region", "area"},
		oldSpoke: "Region string 'json:\"region,omitempty\"'", spoke: "Region string 'json:\"region,omitempty\"'",
		oldHub: "Region string 'json:\"region,omitempty\"'", hub: "Region string 'json:\"area,omitempty\"'",
		want: []convWant{
			{rule: "existingFieldRemoval", version: "v1", path: "^.spec.region"},
			{rule: "fieldDataLoss", version: "v1", path: "^.spec.region", has: "(v1 now serves the same field as ^.spec.area, but the rename does not move stored values)"},
		}},
	{name: "removed from the spoke, kept by the hub",
		props:    []string{"note"},
		oldSpoke: "Note string 'json:\"note,omitempty\"'", spoke: "",
		oldHub: "Note string 'json:\"note,omitempty\"'", hub: "// +crdforge:nocounterpart\nNote string 'json:\"note,omitempty\"'",
		want: []convWant{{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.note", has: "v1 still holds it: stored values are kept"}}},
	{name: "removed from every version",
		props:    []string{"gone"},
		oldSpoke: "Gone string 'json:\"gone,omitempty\"'", oldHub: "Gone string 'json:\"gone,omitempty\"'",
		want: []convWant{
			{rule: "existingFieldRemoval", version: "v1alpha1", path: "^.spec.gone"},
			{rule: "existingFieldRemoval", version: "v1", path: "^.spec.gone"},
			{rule: "fieldDataLoss", path: "^.spec.gone", has: "no version holds ^.spec.gone any more"},
		}},
	{name: "spoke's type changed with no mechanical conversion: at the spoke's field",
		props:    []string{"size"},
		oldSpoke: "Size int32 'json:\"size,omitempty\"'", spoke: "Size Size 'json:\"size,omitempty\"'",
		oldHub: "Size int32 'json:\"size,omitempty\"'", hub: "Size int32 'json:\"size,omitempty\"'",
		types: "// Size is a size.\ntype Size struct {\n\tValue int32 'json:\"value\"'\n}\n",
		want: []convWant{{rule: "conversionTypeChange", version: "v1alpha1", path: "^.spec.size",
			has: "no longer converts mechanically", at: "Size Size 'json"}}},
	{name: "hub's type changed with no mechanical conversion: at the hub's field",
		props:    []string{"count"},
		oldSpoke: "Count int32 'json:\"count,omitempty\"'", spoke: "Count int32 'json:\"count,omitempty\"'",
		oldHub: "Count int32 'json:\"count,omitempty\"'", hub: "Count []int32 'json:\"count,omitempty\"'",
		want: []convWant{{rule: "conversionTypeChange", version: "v1alpha1", path: "^.spec.count",
			has: "no longer converts mechanically", at: "hub:Count []int32 'json"}}},
	{name: "type widened: the conversion still casts",
		props:    []string{"weight"},
		oldSpoke: "Weight int32 'json:\"weight,omitempty\"'", spoke: "Weight int64 'json:\"weight,omitempty\"'",
		oldHub: "Weight int64 'json:\"weight,omitempty\"'", hub: "Weight int64 'json:\"weight,omitempty\"'"},
}

// convTree is the package of version (v1alpha1 or v1) in the baseline (old)
// or the working tree.
func convTree(version string, old bool) string {
	var fields, decls []string
	for _, c := range convCases {
		f, t := c.spoke, c.types
		switch {
		case version == "v1" && old:
			f, t = c.oldHub, c.oldTypes
		case version == "v1":
			f = c.hub
		case old:
			f, t = c.oldSpoke, c.oldTypes
		}
		if f != "" {
			fields = append(fields, "\t// +optional\n\t"+strings.ReplaceAll(f, "\n", "\n\t"))
		}
		if t != "" {
			decls = append(decls, t)
		}
	}
	root := "// +kubebuilder:storageversion"
	if version != "v1" {
		root = ""
	}
	src := "package " + version + "\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"// WidgetSpec is the desired state of a Widget.\ntype WidgetSpec struct {\n" + strings.Join(fields, "\n\n") + "\n}\n\n" +
		strings.Join(decls, "\n") + fmt.Sprintf(rootType, version, root)
	return strings.ReplaceAll(src, "'", "`")
}

func convFiles(old bool) map[string]string {
	files := map[string]string{}
	for _, v := range []string{"v1alpha1", "v1"} {
		files["api/"+v+"/groupversion_info.go"] = fmt.Sprintf(groupInfo, v)
		files["api/"+v+"/types.go"] = convTree(v, old)
	}
	return files
}

// TestConversionAwareFieldRules: what a removed or changed field costs is
// decided through the model's field mapping (renames by JSON name or
// +crdforge:hubfield, moves into nested structs, stashed fields, the
// storage version), and a type change the generated conversion cannot
// express is a finding of its own.
func TestConversionAwareFieldRules(t *testing.T) {
	oldDir := goModule(t, "example.com/widgets", convFiles(true))
	newDir := goModule(t, "example.com/widgets", convFiles(false))
	old, nw := generateSide(t, oldDir), generateSide(t, newDir)
	res, err := Compare(Input{Old: old.CRDs, New: nw.CRDs, OldLocator: old.Locator, NewLocator: nw.Locator}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// The same CRDs without the Go trees: by property paths only.
	byPath, err := Compare(Input{Old: old.CRDs, New: nw.CRDs}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// Against files, with the working tree's Go: a conversion counts as
	// changed where the property's schema type did.
	files, err := Compare(Input{Old: old.CRDs, New: nw.CRDs, NewLocator: nw.Locator}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var typeChanges []string
	for _, f := range files.Findings {
		if f.Rule == "conversionTypeChange" {
			typeChanges = append(typeChanges, f.Version+" "+f.Path)
		}
	}
	if want := []string{"v1alpha1 ^.spec.size"}; !slices.Equal(typeChanges, want) {
		t.Errorf("against files: conversionTypeChange at %q, want %q (v1alpha1's count kept its schema)", typeChanges, want)
	}
	rules := []string{"existingFieldRemoval", "fieldDataLoss", "conversionTypeChange"}
	for _, c := range convCases {
		t.Run(c.name, func(t *testing.T) {
			owns := func(path string) bool {
				return slices.ContainsFunc(c.props, func(p string) bool {
					return path == "^.spec."+p || strings.HasPrefix(path, "^.spec."+p+".") || strings.HasPrefix(path, "^.spec."+p+"[")
				})
			}
			var got []Finding
			for _, f := range res.Findings {
				if slices.Contains(rules, f.Rule) && owns(f.Path) {
					got = append(got, f)
				}
			}
			used := make([]bool, len(got))
			for _, w := range c.want {
				i := slices.IndexFunc(got, func(f Finding) bool {
					return f.Rule == w.rule && f.Path == w.path && (w.version == "" || f.Version == w.version) && strings.Contains(f.Message, w.has)
				})
				if i < 0 {
					t.Errorf("no %s %s %s with %q\n%s", w.rule, w.version, w.path, w.has, describe(res))
					continue
				}
				used[i] = true
				if w.at != "" {
					version, line := w.version, w.at
					if rest, ok := strings.CutPrefix(line, "hub:"); ok {
						version, line = "v1", rest
					}
					wantLine, wantCol := lineCol(t, convTree(version, false), strings.ReplaceAll(line, "'", "`"))
					if f := got[i]; f.Pos.Line != wantLine || f.Pos.Column != wantCol || !strings.HasSuffix(f.Pos.Filename, version+"/types.go") {
						t.Errorf("%s at %s:%d:%d, want %s/types.go:%d:%d", f.Rule, f.Pos.Filename, f.Pos.Line, f.Pos.Column, version, wantLine, wantCol)
					}
				}
			}
			for i, f := range got {
				if !used[i] {
					t.Errorf("unwanted %s/%s %s %s: %s", f.Rule, f.Severity, f.Version, f.Path, f.Message)
				}
			}
			// Where the mapping is what decides, property paths alone
			// decide otherwise: the case tests the mapping.
			pathLoss := slices.ContainsFunc(byPath.Findings, func(f Finding) bool { return f.Rule == "fieldDataLoss" && owns(f.Path) })
			if c.pathModeWouldSayDataLoss && !pathLoss {
				t.Errorf("by property paths alone, no data loss either: the case does not test the mapping")
			}
		})
	}
}
