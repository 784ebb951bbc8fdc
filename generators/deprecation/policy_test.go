package deprecation

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/crdforge/crdforge/generators/model"
)

// kind is a Gadget of gadgets.example.com whose versions deprecate fields
// at paths: "v1 spec.paint.gloss" deprecates spec.paint.gloss in v1.
func kind(fields ...string) *model.Kind {
	k := &model.Kind{Group: "gadgets.example.com", Name: "Gadget", CRD: &apiextensionsv1.CustomResourceDefinition{}}
	k.CRD.Name = "gadgets.gadgets.example.com"
	k.CRD.Spec.Group = k.Group
	k.CRD.Spec.Names.Plural = "gadgets"
	versions := map[string]*model.Version{}
	for _, f := range fields {
		v, path, _ := strings.Cut(f, " ")
		if versions[v] == nil {
			versions[v] = &model.Version{Kind: k, Name: v}
			k.Versions = append(k.Versions, versions[v])
		}
		k.DeprecatedFields = append(k.DeprecatedFields, &model.DeprecatedField{Version: versions[v], Path: strings.Split(path, "."), Warning: "use something else"})
	}
	k.Storage = k.Versions[0]
	return k
}

// Every expression of a generated policy compiles in the API server's own
// admission CEL environment (what it runs when it creates the policy), with
// the return types it requires: bool for a validation, a string (or null)
// for an audit annotation. Property names that are not CEL identifiers are
// escaped as the API server names them.
func TestPolicyExpressionsCompile(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fields []string
	}{
		{"a field in two versions, and a nested one", []string{"v1 spec.color", "v1 spec.paint.gloss", "v1beta1 spec.color"}},
		{"names CEL escapes", []string{"v1 spec.max-size", "v1 spec.in", "v1 spec.a__b", "v1 spec.x.y-z"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			policy, _, err := Build(kind(tt.fields...))
			if err != nil {
				t.Fatal(err)
			}
			compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
			if err != nil {
				t.Fatal(err)
			}
			opts := plugincel.OptionalVariableDeclarations{HasAuthorizer: true}
			var vars []plugincel.NamedExpressionAccessor
			for _, v := range policy.Spec.Variables {
				vars = append(vars, &validating.Variable{Name: v.Name, Expression: v.Expression})
			}
			for _, v := range vars {
				if res := compiler.CompileAndStoreVariable(v, opts, environment.StoredExpressions); res.Error != nil {
					t.Errorf("variable %s: %s: %v", v.GetName(), v.GetExpression(), res.Error)
				}
			}
			for _, v := range policy.Spec.Validations {
				res := compiler.CompileCELExpression(&validating.ValidationCondition{Expression: v.Expression}, opts, environment.StoredExpressions)
				if res.Error != nil {
					t.Errorf("validation %s: %v", v.Expression, res.Error)
				}
			}
			for _, a := range policy.Spec.AuditAnnotations {
				res := compiler.CompileCELExpression(&validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}, opts, environment.StoredExpressions)
				if res.Error != nil {
					t.Errorf("audit annotation %s: %s: %v", a.Key, a.ValueExpression, res.Error)
				}
				if errs := validation.IsQualifiedName(a.Key); len(errs) > 0 || strings.Contains(a.Key, "/") {
					t.Errorf("audit annotation key %q: %v", a.Key, errs)
				}
			}
			if len(policy.Spec.AuditAnnotations) != len(policy.Spec.Variables) {
				t.Errorf("%d audit annotations for %d deprecated paths", len(policy.Spec.AuditAnnotations), len(policy.Spec.Variables))
			}
		})
	}
}

// An audit annotation key is a qualified name's name part, at most 63
// bytes, and two paths never share one.
func TestAuditKeys(t *testing.T) {
	long := "spec." + strings.Repeat("a", 70)
	paths := []string{"spec.color", "spec.paint.gloss", "-odd/name", "spec.x_", long, long + "b"}
	seen := map[string]string{}
	for _, p := range paths {
		key := auditKey(p)
		if errs := validation.IsQualifiedName(key); len(errs) > 0 || strings.Contains(key, "/") {
			t.Errorf("auditKey(%q) = %q: %v", p, key, errs)
		}
		if other, ok := seen[key]; ok {
			t.Errorf("auditKey(%q) = auditKey(%q) = %q", p, other, key)
		}
		seen[key] = p
	}
	if got := auditKey("spec.paint.gloss"); got != "spec.paint.gloss" {
		t.Errorf("auditKey(spec.paint.gloss) = %q, want the path itself", got)
	}
}
