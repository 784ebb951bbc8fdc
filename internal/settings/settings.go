// Package settings names each user setting of crdforge once: the flag the
// command line defines, which is also its key in ProjectFile, and how a
// diagnostic tells a user to set it. The CLI defines its flags and reads
// ProjectFile from these names; the generators name a setting in their
// diagnostics through them, and never spell a flag themselves, so that a
// renamed flag leaves no stale hint behind
// (cmd/crdforge/layout_test.go fails on a "--flag" written out below the
// CLI). A new setting is a constant here.
package settings

import "fmt"

// ProjectFile is where a project sets crdforge generate's flags once: a
// YAML map in the directory crdforge runs in, from flag names (without --)
// to values.
const ProjectFile = ".crdforge.yaml"

// Setting is one user setting, named as its flag is, without the dashes.
type Setting string

// crdforge generate's settings.
const (
	Admission                  Setting = "admission"
	AllowDangerousTypes        Setting = "allow-dangerous-types"
	AllowDroppedZeros          Setting = "allow-dropped-zeros"
	CRDDir                     Setting = "crd-dir"
	CRDHeaderFile              Setting = "crd-header-file"
	Docs                       Setting = "docs"
	FitCRDBytes                Setting = "fit-crd-bytes"
	GenerateEmbeddedObjectMeta Setting = "generate-embedded-object-meta"
	HeaderFile                 Setting = "header-file"
	Helm                       Setting = "helm"
	IgnoreUnexportedFields     Setting = "ignore-unexported-fields"
	JSONSchema                 Setting = "json-schema"
	KubeVersion                Setting = "kube-version"
	MaxDescLen                 Setting = "max-desc-len"
	Only                       Setting = "only"
	RBAC                       Setting = "rbac"
	RBACRoleName               Setting = "rbac-role-name"
	Strict                     Setting = "strict"
	ValidateSamples            Setting = "validate-samples"
	WebhookCodec               Setting = "webhook-codec"
	WebhookImage               Setting = "webhook-image"
	WebhookMain                Setting = "webhook-main"
	WebhookManageCerts         Setting = "webhook-manage-certs"
	WebhookMigrateStorage      Setting = "webhook-migrate-storage"
	Year                       Setting = "year"
)

// crdforge check's flags that are crdforge's alone.
const (
	CheckObjects Setting = "objects"
)

// crdforge validate's flags that its diagnostics name.
const (
	ValidateCRD Setting = "crd"
	ValidateOld Setting = "old"
)

// Name is the flag's name without dashes, as pflag defines it.
func (s Setting) Name() string { return string(s) }

// Flag is the setting as the command line gives it: "--name".
func (s Setting) Flag() string { return "--" + string(s) }

// FlagIs is the flag given value: "--name=value".
func (s Setting) FlagIs(value any) string { return fmt.Sprintf("%s=%v", s.Flag(), value) }

// Key is the setting's key in ProjectFile: the flag's name.
func (s Setting) Key() string { return string(s) }

// InProjectFile is the line of ProjectFile that sets value, and where:
// "name: value in .crdforge.yaml".
func (s Setting) InProjectFile(value any) string {
	return fmt.Sprintf("%s: %v in %s", s.Key(), value, ProjectFile)
}
