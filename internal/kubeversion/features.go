package kubeversion

// feature is something a generated object uses that older API servers do
// not have: an API version they do not serve, or a field they do not know.
type feature struct {
	// what names it for the user.
	what string
	// since is the first release that has it on by default.
	since Release
	// why says what an older server does with it.
	why string
	// help says where it comes from, and how to do without it.
	help string
}

// The features, each checked against the API types of the releases around
// it (k8s.io/api and k8s.io/apiextensions-apiserver of each minor) and the
// feature gates' defaults.
var (
	celRules = feature{"CEL validation rules (x-kubernetes-validations)", Release{25},
		"before 1.25 the API server runs no CEL rule (CustomResourceValidationExpressions is alpha and off)",
		"the rules come from +kubebuilder:validation:XValidation markers"}
	messageExpression = feature{"a CEL rule's messageExpression", Release{27},
		"before 1.27 the API server does not know the field, drops it and prints the rule's message",
		"it comes from an XValidation marker's messageExpression; give a message instead"}
	ruleReason = feature{"a CEL rule's reason or fieldPath", Release{28},
		"before 1.28 the API server does not know the fields and drops them",
		"they come from an XValidation marker's reason or fieldPath; leave them out"}
	optionalOldSelf = feature{"a CEL rule's optionalOldSelf", Release{30},
		"before 1.30 it needs the CRDValidationRatcheting feature gate, off by default",
		"it comes from an XValidation marker's optionalOldSelf; turn the gate on, or write the rule without it"}
	admissionPolicyV1 = feature{"ValidatingAdmissionPolicy of admissionregistration.k8s.io/v1", Release{30},
		"before 1.30 the API server does not serve admissionregistration.k8s.io/v1 policies and refuses the object",
		"the policy warns on the +deprecated fields; leave the deprecation generator out of the run"}
	preStopSleep = feature{"a preStop sleep action", Release{30},
		"before 1.30 it needs the PodLifecycleSleepAction feature gate, off by default: the API server refuses the pod template",
		"the Deployment sleeps before it stops so that endpoints drop the pod first; on such a cluster, patch the preStop to an exec of sleep in your kustomization"}
	autoscalingV2 = feature{"HorizontalPodAutoscaler of autoscaling/v2", Release{23},
		"before 1.23 the API server does not serve autoscaling/v2",
		"the chart writes it with autoscaling.enabled; leave that off"}
	policyV1 = feature{"PodDisruptionBudget of policy/v1", Release{21},
		"before 1.21 the API server does not serve policy/v1",
		"the generated PodDisruptionBudget is policy/v1"}
)

// apiFeatures are the features of whole objects, by apiVersion and kind.
var apiFeatures = map[[2]string]feature{
	{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"}:        admissionPolicyV1,
	{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"}: admissionPolicyV1,
	{"autoscaling/v2", "HorizontalPodAutoscaler"}:                           autoscalingV2,
	{"policy/v1", "PodDisruptionBudget"}:                                    policyV1,
}

// ruleFields are the features of a CEL rule's fields, by field name.
var ruleFields = map[string]feature{
	"messageExpression": messageExpression,
	"reason":            ruleReason,
	"fieldPath":         ruleReason,
	"optionalOldSelf":   optionalOldSelf,
}
