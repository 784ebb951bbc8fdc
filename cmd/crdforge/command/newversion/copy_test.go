package newversion

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestRenameConvertFunc(t *testing.T) {
	for in, want := range map[string]string{
		"Convert_v1beta1_CronTab_To_v1_CronTab":     "Convert_v1beta2_CronTab_To_v1_CronTab",
		"autoConvert_v1_CronTab_To_v1beta1_CronTab": "autoConvert_v1_CronTab_To_v1beta2_CronTab",
		"Convert_v1beta1X_CronTab_To_v1_CronTab":    "Convert_v1beta1X_CronTab_To_v1_CronTab", // not the version
		"convertV1beta1":                            "convertV1beta1",                         // not conversion-gen's naming
		"Convert_v1_CronTab_To_v1_CronTab_v1beta1":  "Convert_v1_CronTab_To_v1_CronTab_v1beta2",
	} {
		if got := renameConvertFunc(in, "v1beta1", "v1beta2"); got != want {
			t.Errorf("renameConvertFunc(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestRenameVersion: what the copy changes, and what it leaves alone.
func TestRenameVersion(t *testing.T) {
	src := `// Package v1beta1 contains the v1beta1 version; v1beta10 is another.
// +groupName=example.com
package v1beta1

import other "example.com/m/api/v1beta1"

const (
	version = "v1beta1"
	api     = "example.com/v1beta1"
	kept    = "v1beta1x"
)

// In v1beta1 the address was one string.
func Convert_v1beta1_A_To_v1_A() { _ = other.X }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	e := &editedFile{path: "a.go", src: []byte(src), fset: fset, file: f}
	renameVersion(e, "example.com", "v1beta1", "v1beta2", "example.com/m/api/v1beta1", "example.com/m/api/v1beta2")
	out, err := e.result()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"// Package v1beta2 contains the v1beta2 version; v1beta10 is another.\n",
		"package v1beta2\n",
		`import other "example.com/m/api/v1beta2"`,
		`version = "v1beta2"`, `api     = "example.com/v1beta2"`, `kept    = "v1beta1x"`,
		"// In v1beta1 the address was one string.\n", // history, not the package comment
		"func Convert_v1beta2_A_To_v1_A() { _ = other.X }",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the copy lacks %q:\n%s", want, got)
		}
	}
}
