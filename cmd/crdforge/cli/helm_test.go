package cli

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/manifestcheck"
)

// The chart's Chart.yaml and values.yaml are the user's once written:
// regenerating, and --verify, leave the user's edits as they are, while the
// templates crdforge keeps come back when deleted or edited.
func TestHelmChartKeepsTheUsersValues(t *testing.T) {
	dir := scratchCase(t, "helm")
	args := []string{"generate", "--only", "crd,deprecation,helm", "./..."}
	if code, _, stderr := run(t, dir, args...); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chart := chartDir(t, dir)
	rel, _ := filepath.Rel(dir, chart)
	mine := map[string]string{
		"values.yaml": "# mine\nreplicas: 5\n",
		"Chart.yaml":  "apiVersion: v2\nname: mine\nversion: 1.4.0\n",
	}
	for name, content := range mine {
		writeFile(t, filepath.Join(chart, name), []byte(content))
	}
	service := filepath.Join(chart, "templates", "service.yaml")
	if err := os.Remove(service); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, args...)
	if code != ExitOK {
		t.Fatalf("regenerating over the user's values: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote "+filepath.Join(rel, "templates", "service.yaml")) || strings.Contains(stderr, "values.yaml") || strings.Contains(stderr, "Chart.yaml") {
		t.Errorf("want only the deleted template written again:\n%s", stderr)
	}
	for name, content := range mine {
		if b, _ := os.ReadFile(filepath.Join(chart, name)); string(b) != content {
			t.Errorf("%s = %q, want the user's %q", name, b, content)
		}
	}
	if code, _, stderr := run(t, dir, append([]string{"generate", "--verify"}, args[1:]...)...); code != ExitOK {
		t.Errorf("--verify over the user's values: exit %d, want %d\n%s", code, ExitOK, stderr)
	}
}

// A run that names no generators writes the chart only when the project
// asks for it: helm: true in .crdforge.yaml (the --helm flag).
func TestHelmOnlyWhenAsked(t *testing.T) {
	dir := scratchCase(t, "helm")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "charts")); err == nil {
		t.Fatal("a run not asked for a chart wrote one")
	}
	writeFile(t, filepath.Join(dir, ProjectFile), []byte("helm: true\n"))
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chartDir(t, dir)
}

// chartDir is the one chart under dir/charts (named after the project,
// which a scratch case's directory names).
func chartDir(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "charts", "*", "values.yaml"))
	if len(m) != 1 {
		t.Fatalf("charts with a values.yaml under %s: %v, want one", dir, m)
	}
	return filepath.Dir(m[0])
}

// allValues sets every value the chart has, each to something other than
// its default.
const allValues = `image: {repository: registry.example.com/team/hook, tag: v2, pullPolicy: Always}
imagePullSecrets: [{name: regcred}]
replicas: 3
autoscaling: {enabled: true, minReplicas: 3, maxReplicas: 9, targetCPUUtilizationPercentage: 70, targetMemoryUtilizationPercentage: 75}
resources: {requests: {cpu: 20m, memory: 64Mi}, limits: {memory: 256Mi}}
podSecurityContext: {runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, seccompProfile: {type: RuntimeDefault}}
securityContext: {readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsGroup: 3000}
serviceAccount: {create: true, name: hook, annotations: {example.com/role: hook}}
podAnnotations: {sidecar.istio.io/inject: "true"}
podLabels: {cost-center: c42}
nodeSelector: {kubernetes.io/os: linux}
tolerations: [{key: dedicated, operator: Equal, value: hooks, effect: NoSchedule}]
affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [hooks]}]}]}}}
topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app.kubernetes.io/name: helm-webhook}}}]
priorityClassName: system-cluster-critical
extraArgs: [--max-inflight-bytes=1048576]
extraEnv: [{name: GODEBUG, value: madvdontneed=1}]
networkPolicy: {enabled: true, metricsNamespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}
names: {deployment: hook, service: hook-svc, secret: hook-tls, certificate: hook-cert, issuer: hook-issuer}
certManager: {enabled: false}
caBundle: Y2E=
crds: {enabled: true, keep: false}
`

// The chart takes the values every cluster needs (a private registry,
// scheduling, a mesh's annotations, an autoscaler, ...): helm lint --strict
// passes with its defaults and with every value set; every object helm
// template renders decodes strictly into its Kubernetes type, its pod at
// Pod Security "restricted"; and each value reaches the object it sets.
func TestHelmChartValues(t *testing.T) {
	helm := helmBinary(t)
	dir := scratchCase(t, "helm")
	if code, _, stderr := run(t, dir, "generate", "--only", "crd,deprecation,helm", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chart := chartDir(t, dir)
	all := filepath.Join(dir, "all-values.yaml")
	writeFile(t, all, []byte(allValues))

	objs := helmObjects(t, helm, chart)
	d := deploymentOf(t, objs)
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 || d.Spec.Template.Spec.ServiceAccountName != "" {
		t.Errorf("the default Deployment: replicas %v, service account %q", d.Spec.Replicas, d.Spec.Template.Spec.ServiceAccountName)
	}
	if np := networkPolicies(objs); len(np) != 0 {
		t.Errorf("the default values render %d NetworkPolicies, want none: it is opt-in", len(np))
	}
	checkAllValues(t, helmObjects(t, helm, chart, "-f", all), d.Spec.Template.Spec.Containers[0].Args)
	// Enabled without a selector, the metrics port admits the namespaces
	// labelled metrics: enabled, as the kustomize component does.
	np := networkPolicies(helmObjects(t, helm, chart, "--set", "networkPolicy.enabled=true"))
	if len(np) != 1 || !checkNetworkPolicy(t, np[0], d, map[string]string{"metrics": "enabled"}) {
		t.Errorf("networkPolicy.enabled alone: %d NetworkPolicies, want one admitting namespaces labelled metrics: enabled", len(np))
	}
	// With crds.enabled false, no CRD and no policy is rendered.
	for _, o := range helmObjects(t, helm, chart, "-f", all, "--set", "crds.enabled=false") {
		if strings.HasPrefix(o.APIVersion, "apiextensions.k8s.io/") || strings.HasPrefix(o.APIVersion, "admissionregistration.k8s.io/") {
			t.Errorf("crds.enabled=false renders a %s", o.Kind)
		}
	}
}

// helmBinary is bin/helm, which make bin/helm builds from tools/helm.
func helmBinary(t *testing.T) string {
	t.Helper()
	helm, _ := filepath.Abs("../../../bin/helm")
	if _, err := os.Stat(helm); err != nil {
		t.Skipf("no helm in bin (make bin/helm builds it): %v", err)
	}
	return helm
}

// helmObjects lints the chart strictly with args (values), then renders it
// and decodes every object strictly; every pod template must pass Pod
// Security "restricted".
func helmObjects(t *testing.T, helm, chart string, args ...string) []manifestcheck.Object {
	t.Helper()
	home := t.TempDir()
	helmRun := func(a ...string) []byte {
		cmd := exec.Command(helm, a...)
		cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("helm %s: %v\n%s", strings.Join(a, " "), err, out)
		}
		return out
	}
	helmRun(append([]string{"lint", "--strict", chart}, args...)...)
	objs, err := manifestcheck.Decode(helmRun(append([]string{"template", "r", chart, "-n", "ns"}, args...)...))
	if err != nil {
		t.Fatalf("helm template %s: %v", strings.Join(args, " "), err)
	}
	for _, o := range objs {
		if d, ok := o.Typed.(*appsv1.Deployment); ok {
			if err := manifestcheck.Restricted(&d.Spec.Template); err != nil {
				t.Errorf("helm template %s: the Deployment's pod %v", strings.Join(args, " "), err)
			}
		}
	}
	return objs
}

func deploymentOf(t *testing.T, objs []manifestcheck.Object) *appsv1.Deployment {
	t.Helper()
	for _, o := range objs {
		if d, ok := o.Typed.(*appsv1.Deployment); ok {
			return d
		}
	}
	t.Fatal("no Deployment rendered")
	return nil
}

// checkAllValues checks that each of allValues reaches its object;
// defaultArgs are the webhook's args without extraArgs, which extraArgs
// follow rather than replace.
func checkAllValues(t *testing.T, objs []manifestcheck.Object, defaultArgs []string) {
	t.Helper()
	d := deploymentOf(t, objs)
	pod := d.Spec.Template
	c := pod.Spec.Containers[0]
	checks := map[string]bool{
		"image":                     c.Image == "registry.example.com/team/hook:v2" && c.ImagePullPolicy == corev1.PullAlways,
		"imagePullSecrets":          len(pod.Spec.ImagePullSecrets) == 1 && pod.Spec.ImagePullSecrets[0].Name == "regcred",
		"autoscaling":               d.Spec.Replicas == nil,
		"resources":                 c.Resources.Limits.Memory().String() == "256Mi",
		"podSecurityContext":        pod.Spec.SecurityContext != nil && pod.Spec.SecurityContext.FSGroup != nil && *pod.Spec.SecurityContext.FSGroup == 2000,
		"securityContext":           c.SecurityContext != nil && c.SecurityContext.RunAsGroup != nil && *c.SecurityContext.RunAsGroup == 3000,
		"serviceAccount":            pod.Spec.ServiceAccountName == "hook",
		"podAnnotations":            pod.Annotations["sidecar.istio.io/inject"] == "true",
		"podLabels":                 pod.Labels["cost-center"] == "c42" && pod.Labels["app.kubernetes.io/name"] == "hook",
		"nodeSelector":              pod.Spec.NodeSelector["kubernetes.io/os"] == "linux",
		"tolerations":               len(pod.Spec.Tolerations) == 1 && pod.Spec.Tolerations[0].Key == "dedicated",
		"affinity":                  pod.Spec.Affinity != nil && pod.Spec.Affinity.NodeAffinity != nil && pod.Spec.Affinity.PodAntiAffinity == nil,
		"topologySpreadConstraints": len(pod.Spec.TopologySpreadConstraints) == 1,
		"priorityClassName":         pod.Spec.PriorityClassName == "system-cluster-critical",
		"extraArgs":                 slices.Equal(c.Args, append(slices.Clone(defaultArgs), "--max-inflight-bytes=1048576")),
		"extraEnv":                  len(c.Env) == 2 && c.Env[1].Name == "GODEBUG",
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("%s: not in the rendered Deployment", name)
		}
	}
	kinds := map[string]int{}
	for _, o := range objs {
		kinds[o.Kind]++
		switch x := o.Typed.(type) {
		case *autoscalingv2.HorizontalPodAutoscaler:
			if *x.Spec.MinReplicas != 3 || x.Spec.MaxReplicas != 9 || len(x.Spec.Metrics) != 2 {
				t.Errorf("the HorizontalPodAutoscaler: %+v", x.Spec)
			}
		case *networkingv1.NetworkPolicy:
			checkNetworkPolicy(t, x, d, map[string]string{"kubernetes.io/metadata.name": "monitoring"})
		case *corev1.ServiceAccount:
			if x.Name != "hook" || x.Annotations["example.com/role"] != "hook" {
				t.Errorf("the ServiceAccount: %+v", x.ObjectMeta)
			}
		case *apiextensionsv1.CustomResourceDefinition:
			if _, kept := x.Annotations["helm.sh/resource-policy"]; kept {
				t.Errorf("crds.keep=false: CRD %s still kept", x.Name)
			}
		}
	}
	for kind, want := range map[string]int{"HorizontalPodAutoscaler": 1, "ServiceAccount": 1, "PodDisruptionBudget": 1, "Issuer": 0, "CustomResourceDefinition": 1, "NetworkPolicy": 1} {
		if kinds[kind] != want {
			t.Errorf("%d %s rendered, want %d (%v)", kinds[kind], kind, want, kinds)
		}
	}
}

func networkPolicies(objs []manifestcheck.Object) []*networkingv1.NetworkPolicy {
	var out []*networkingv1.NetworkPolicy
	for _, o := range objs {
		if np, ok := o.Typed.(*networkingv1.NetworkPolicy); ok {
			out = append(out, np)
		}
	}
	return out
}

// checkNetworkPolicy holds np to what the chart promises: it selects d's
// pods, admits d's webhook port from anywhere and its metrics port from the
// namespaces whose labels are metricsNamespaces, and nothing else.
func checkNetworkPolicy(t *testing.T, np *networkingv1.NetworkPolicy, d *appsv1.Deployment, metricsNamespaces map[string]string) bool {
	t.Helper()
	ports := map[string]int32{}
	for _, p := range d.Spec.Template.Spec.Containers[0].Ports {
		ports[p.Name] = p.ContainerPort
	}
	ok := np.Namespace == d.Namespace && len(np.Spec.PodSelector.MatchLabels) > 0
	for k, v := range np.Spec.PodSelector.MatchLabels {
		ok = ok && d.Spec.Template.Labels[k] == v
	}
	in := np.Spec.Ingress
	ok = ok && slices.Equal(np.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) && len(in) == 2
	ok = ok && len(in[0].From) == 0 && len(in[0].Ports) == 1 && in[0].Ports[0].Port.IntVal == ports["webhook"]
	ok = ok && len(in[1].From) == 1 && in[1].From[0].PodSelector == nil && in[1].From[0].NamespaceSelector != nil &&
		maps.Equal(in[1].From[0].NamespaceSelector.MatchLabels, metricsNamespaces) &&
		len(in[1].Ports) == 1 && in[1].Ports[0].Port.IntVal == ports["metrics"]
	if !ok {
		t.Errorf("the NetworkPolicy, for the Deployment's pods %v and ports %v, want namespaces %v to the metrics port: %+v",
			d.Spec.Template.Labels, ports, metricsNamespaces, np.Spec)
	}
	return ok
}
