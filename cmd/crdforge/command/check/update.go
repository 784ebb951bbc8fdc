package check

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/endpoints/request"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/internal/crdstrategy"
)

// updateValidator runs the API server's own validation of an update of the
// baseline's CRD to the new one, offline: what kube-apiserver answers to
// kubectl apply. Among much else it compiles every CEL rule against the new
// schema and estimates its cost with the API server's cost estimator, and
// it ratchets as the API server does: a rule the baseline already had over
// budget passes, a rule that newly is over budget does not.
type updateValidator struct {
	scheme *runtime.Scheme
}

func newUpdateValidator() *updateValidator {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return &updateValidator{scheme: scheme}
}

func (u *updateValidator) internal(c *apiextensionsv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	ext := c.DeepCopy()
	u.scheme.Default(ext)
	in := &apiextensions.CustomResourceDefinition{}
	if err := u.scheme.Convert(ext, in, nil); err != nil {
		return nil, err
	}
	return in, nil
}

func (u *updateValidator) findings(old, nw *apiextensionsv1.CustomResourceDefinition) []Finding {
	o, err := u.internal(old)
	if err != nil {
		return []Finding{{Rule: "apiServerUpdate", CRD: old.Name, Message: "converting the baseline for validation: " + err.Error()}}
	}
	n, err := u.internal(nw)
	if err != nil {
		return []Finding{{Rule: "apiServerUpdate", CRD: old.Name, Message: "converting for validation: " + err.Error()}}
	}
	if len(o.Status.StoredVersions) == 0 {
		// A git or file baseline has no status: a cluster that installed
		// it stores at least its storage version.
		for _, v := range o.Spec.Versions {
			if v.Storage {
				o.Status.StoredVersions = []string{v.Name}
			}
		}
	}
	n.ResourceVersion = "1"
	o.ResourceVersion = "1"
	// kubectl apply patches the object the cluster holds, so an update
	// keeps what the API server set when it created it; a generated CRD
	// has none of it, and without it every CRD read from a cluster would
	// "change" its uid and creation time.
	n.UID, n.CreationTimestamp = o.UID, o.CreationTimestamp
	n.DeletionTimestamp, n.DeletionGracePeriodSeconds = o.DeletionTimestamp, o.DeletionGracePeriodSeconds
	ctx := request.WithRequestInfo(context.Background(), &request.RequestInfo{
		IsResourceRequest: true, Verb: "update", APIGroup: apiextensionsv1.GroupName,
		APIVersion: "v1", Resource: "customresourcedefinitions", Name: nw.Name,
	})
	crdstrategy.PrepareForUpdate(n, o)
	var out []Finding
	for _, e := range validation.ValidateCustomResourceDefinitionUpdate(ctx, n, o) {
		if strings.HasPrefix(e.Field, "status.storedVersions") {
			// storedVersionRemoval and storageVersionRemoved say it, with
			// what to do.
			continue
		}
		version, path, rule := crdifyPath(n, e.Field)
		f := Finding{Rule: "apiServerUpdate", CRD: nw.Name, Version: version, Path: path,
			Message: "the API server would reject the update: " + crd.Describe(e)}
		if s := schemaAt(nw, version, path); s != nil && rule >= 0 && rule < len(s.XValidations) {
			f.celRule = s.XValidations[rule].Rule
		}
		out = append(out, f)
	}
	return out
}

var apiPathSegment = regexp.MustCompile(`^([^.\[]+)(?:\[([^\]]*)\])?\.?`)

// crdifyPath turns an API server field path of a CRD
// (spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[items].items.x-kubernetes-validations[0])
// into the version's name and crdify's property path (^.spec.items[*]), and
// the index of the x-kubernetes-validations rule it names (-1 for none).
func crdifyPath(c *apiextensions.CustomResourceDefinition, p string) (version, path string, rule int) {
	rule = -1
	var segs [][2]string
	for p != "" {
		m := apiPathSegment.FindStringSubmatch(p)
		if m == nil {
			break
		}
		segs = append(segs, [2]string{m[1], m[2]})
		p = p[len(m[0]):]
	}
	if len(segs) < 2 || segs[0][0] != "spec" || len(c.Spec.Versions) == 0 {
		return "", "", rule
	}
	switch segs[1][0] {
	case "versions":
		i, err := strconv.Atoi(segs[1][1])
		if err != nil || i < 0 || i >= len(c.Spec.Versions) {
			return "", "", rule
		}
		version = c.Spec.Versions[i].Name
		segs = segs[2:]
	case "validation", "subresources", "additionalPrinterColumns", "selectableFields":
		// The internal version holds what every version shares once, at
		// the top: the first version stands for all of them.
		version = c.Spec.Versions[0].Name
		segs = segs[2:]
	default:
		return "", "", rule
	}
	if len(segs) > 0 && segs[0][0] == "schema" {
		segs = segs[1:]
	}
	if len(segs) == 0 || segs[0][0] != "openAPIV3Schema" {
		return version, "", rule
	}
	path = "^"
	for _, s := range segs[1:] {
		switch s[0] {
		case "properties":
			path += "." + s[1]
		case "items", "additionalProperties":
			path += "[*]"
		case "schema":
		case "x-kubernetes-validations":
			if i, err := strconv.Atoi(s[1]); err == nil {
				rule = i
			}
			return version, path, rule
		default:
			return version, path, rule
		}
	}
	return version, path, rule
}
