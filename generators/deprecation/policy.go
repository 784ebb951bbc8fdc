package deprecation

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/utils/ptr"

	"github.com/crdforge/crdforge/generators/model"
)

// PolicyName is the name of k's policy and of its binding:
// <plural>.<group>-deprecated-fields, the CRD's name, so that the warning
// kubectl prints ("ValidatingAdmissionPolicy '<name>' with binding
// '<name>'") says which resource it is about.
func PolicyName(k *model.Kind) string { return k.CRD.Name + "-deprecated-fields" }

// Build returns k's policy and its binding.
//
// Which writes warn: a create that sets a deprecated field, and an update
// that sets it where the old object did not, or changes its value. An
// update that leaves the field as it was does not: the warning goes to the
// client that wrote the field, not to every controller that later adds a
// finalizer or a label to an object that has it (Kubernetes' own field
// warnings do the same, KEP-1693: warn on update only about what the
// update introduces). The policy matches the versions that deprecate a
// field, exactly (matchPolicy Exact): a request at another version is not
// converted to one of them, and a field deprecated in one version only
// warns there. failurePolicy is Fail: with Warn and Audit as the binding's
// only actions, a failure (a CEL error) is itself a warning and an audit
// annotation, never a refused request, where Ignore would hide it.
func Build(k *model.Kind) (*admissionregistrationv1.ValidatingAdmissionPolicy, *admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	name := PolicyName(k)
	vars, err := variables(k)
	if err != nil {
		return nil, nil, err
	}
	var versions []string
	var validations []admissionregistrationv1.Validation
	for _, f := range k.DeprecatedFields {
		if !slices.Contains(versions, f.Version.Name) {
			versions = append(versions, f.Version.Name)
		}
		validations = append(validations, admissionregistrationv1.Validation{
			Expression: fmt.Sprintf("%s != %s || !variables.%s", requestVersion, quote(f.Version.Name), vars.names[f.JSONPath()]),
			Message:    Message(k, f),
		})
	}
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
			MatchConstraints: &admissionregistrationv1.MatchResources{
				MatchPolicy: ptr.To(admissionregistrationv1.Exact),
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
						Rule: admissionregistrationv1.Rule{
							APIGroups:   []string{k.CRD.Spec.Group},
							APIVersions: versions,
							Resources:   []string{k.CRD.Spec.Names.Plural},
						},
					},
				}},
			},
			Variables:        vars.list,
			Validations:      validations,
			AuditAnnotations: auditAnnotations(k, vars),
		},
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Warn, admissionregistrationv1.Audit},
		},
	}
	return policy, binding, nil
}

// requestVersion is the version a request is at; with matchPolicy Exact,
// the version of object and oldObject too.
const requestVersion = "request.resource.version"

// Message is what the warning says about f: its version, kind and JSON
// path, and the marker's text.
func Message(k *model.Kind, f *model.DeprecatedField) string {
	return fmt.Sprintf("%s/%s %s %s is deprecated: %s", k.Group, f.Version.Name, k.Name, f.JSONPath(), f.Warning)
}

// newlySet is the CEL that holds when the request's object sets the field
// at path and the old object (none on create) did not, or held another
// value. Every step is guarded by has(), so that absent parents (optional
// structs, pointers) make it false rather than an error.
func newlySet(path []string) (string, error) {
	now, err := hasChain("object", path)
	if err != nil {
		return "", err
	}
	before, _ := hasChain("oldObject", path)
	return fmt.Sprintf("%s && (oldObject == null || !(%s) || %s != %s)", now, before, selector("oldObject", path), selector("object", path)), nil
}

// hasChain is has(root.a) && has(root.a.b) && ... for every step of path.
func hasChain(root string, path []string) (string, error) {
	var parts []string
	sel := root
	for _, name := range path {
		esc, ok := apiservercel.Escape(name)
		if !ok {
			return "", fmt.Errorf("property %q of %s cannot be named in CEL", name, strings.Join(path, "."))
		}
		sel += "." + esc
		parts = append(parts, "has("+sel+")")
	}
	return strings.Join(parts, " && "), nil
}

// selector is root.a.b, each name escaped as the API server's CEL
// environment names properties (hasChain has checked that each can be).
func selector(root string, path []string) string {
	sel := root
	for _, name := range path {
		esc, _ := apiservercel.Escape(name)
		sel += "." + esc
	}
	return sel
}

// quote is s as a CEL string literal: Go's escapes are CEL's.
func quote(s string) string { return strconv.Quote(s) }

// policyVars are the policy's variables: one per deprecated JSON path,
// true when the request newly sets the field there (newlySet), and each
// path's variable name.
type policyVars struct {
	list  []admissionregistrationv1.Variable
	names map[string]string
	paths []string
}

// variables names a variable for each deprecated JSON path, in the order
// the fields come: sets_ and the path, with every character CEL does not
// allow in an identifier as "_" (and a number when two paths come out the
// same).
func variables(k *model.Kind) (policyVars, error) {
	vars := policyVars{names: map[string]string{}}
	taken := map[string]bool{}
	for _, f := range k.DeprecatedFields {
		p := f.JSONPath()
		if _, ok := vars.names[p]; ok {
			continue
		}
		expr, err := newlySet(f.Path)
		if err != nil {
			return vars, err
		}
		base := "sets_" + notIdentChar.ReplaceAllString(strings.Join(f.Path, "_"), "_")
		name := base
		for i := 2; taken[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		taken[name] = true
		vars.names[p] = name
		vars.paths = append(vars.paths, p)
		vars.list = append(vars.list, admissionregistrationv1.Variable{Name: name, Expression: expr})
	}
	return vars, nil
}

// notIdentChar matches what a CEL identifier may not hold.
var notIdentChar = regexp.MustCompile(`[^A-Za-z0-9_]`)

// auditAnnotations are one annotation per deprecated JSON path: its value,
// when a request newly sets the field in a version that deprecates it, is
// that version's message; otherwise "", which writes no annotation (as null
// would, but CEL's conditional wants both branches strings).
func auditAnnotations(k *model.Kind, vars policyVars) []admissionregistrationv1.AuditAnnotation {
	var out []admissionregistrationv1.AuditAnnotation
	keys := map[string]bool{}
	for _, p := range vars.paths {
		var fields []*model.DeprecatedField
		for _, f := range k.DeprecatedFields {
			if f.JSONPath() == p {
				fields = append(fields, f)
			}
		}
		expr := `""`
		for i := len(fields) - 1; i >= 0; i-- {
			f := fields[i]
			expr = fmt.Sprintf("%s == %s ? %s : %s", requestVersion, quote(f.Version.Name), quote(Message(k, f)), parens(expr))
		}
		key := auditKey(p)
		for i := 2; keys[key]; i++ {
			key = auditKey(fmt.Sprintf("%s-%d", p, i))
		}
		keys[key] = true
		out = append(out, admissionregistrationv1.AuditAnnotation{
			Key:             key,
			ValueExpression: fmt.Sprintf(`variables.%s ? %s : ""`, vars.names[p], parens(expr)),
		})
	}
	return out
}

// parens puts a conditional in parentheses, so that chained conditionals
// read as they nest.
func parens(expr string) string {
	if expr == `""` {
		return expr
	}
	return "(" + expr + ")"
}

// notKeyChar matches what an audit annotation key may not hold: the key is
// a qualified name's name part, [A-Za-z0-9][-A-Za-z0-9_.]*, at most 63
// bytes (the API server writes it as <policy name>/<key>).
var notKeyChar = regexp.MustCompile(`[^-A-Za-z0-9_.]`)

// auditKey is the audit annotation key for a JSON path: the path itself
// when it is a valid key (spec.backup.retention); otherwise with every
// other character as "_", starting with an alphanumeric, and cut to 63
// bytes with a hash of the path at the end, so that keys stay apart.
func auditKey(path string) string {
	key := notKeyChar.ReplaceAllString(path, "_")
	if key == "" || !isAlnum(key[0]) {
		key = "f" + key
	}
	if !isAlnum(key[len(key)-1]) {
		key += "0"
	}
	if len(key) > 63 {
		h := fnv.New32a()
		_, _ = h.Write([]byte(path))
		key = fmt.Sprintf("%s-%08x", key[:54], h.Sum32())
	}
	return key
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
