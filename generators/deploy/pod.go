package deploy

import "time"

// Pod is what the webhook's pod templates (webhook/_parts.yaml) read: the
// same for the kustomization's Deployment and the Helm chart's.
type Pod struct {
	// What the webhook binary listens on and where it reads its serving
	// certificate.
	WebhookPort, MetricsPort, HealthPort int
	CertDir                              string
	// The pod's shutdown, in seconds: the preStop sleep, the webhook's
	// --shutdown-grace-period, its drain, and the
	// terminationGracePeriodSeconds that covers them (terminationGracePeriod).
	PreStopSeconds, ShutdownGraceSeconds, DrainSeconds, TerminationGracePeriodSeconds int
	// The pod's and its container's securityContext, as YAML at no
	// indentation (security.go): the Helm chart's defaults too.
	PodSecurityContext, ContainerSecurityContext string
	// MemoryLimitEnv is the variable that gives the webhook its container's
	// memory limit: ContainerMemoryLimitEnv.
	MemoryLimitEnv string
	// MetricsNamespaceSelector selects the namespaces the NetworkPolicy
	// admits to the metrics port, as YAML at no indentation
	// (networkpolicy.go).
	MetricsNamespaceSelector string
}

// ContainerMemoryLimitEnv is the environment variable the webhook reads its
// container's memory limit from, in bytes, to set its Go memory limit under
// it: webhook.ContainerMemoryLimitEnv, which a test holds it to. The Go
// runtime's own GOMEMLIMIT would be that limit itself, which leaves the
// process no room for what the Go limit does not count.
const ContainerMemoryLimitEnv = "CRDFORGE_CONTAINER_MEMORY_LIMIT"

// The webhook pod's shutdown. The kubelet runs the preStop sleep, then sends
// SIGTERM; the webhook serves on for the shutdown grace, closing each
// keep-alive connection after its response, then drains what is in flight
// for up to DrainTimeout; SIGKILL comes at terminationGracePeriodSeconds,
// counted from the start of preStop.
const (
	// PreStop lets the endpoint controller and the API server stop sending
	// requests here while the webhook still serves them.
	PreStop = 5 * time.Second
	// ShutdownGrace is the webhook's --shutdown-grace-period, passed as a
	// flag, so that the period below covers it whatever the default.
	ShutdownGrace = 5 * time.Second
	// DrainTimeout is how long the webhook waits for in-flight requests
	// after the grace: webhook.DrainTimeout, which a test holds it to.
	DrainTimeout = 30 * time.Second
	// terminationSlack is the time the kubelet, the process's exit and a
	// request finishing at DrainTimeout's edge take beyond the sum.
	terminationSlack = 5 * time.Second
)

// WebhookPod is the webhook's pod as crdforge deploys it.
func WebhookPod() Pod {
	return Pod{
		WebhookPort: WebhookPort, MetricsPort: MetricsPort, HealthPort: HealthPort, CertDir: CertDir,
		PreStopSeconds:                seconds(PreStop),
		ShutdownGraceSeconds:          seconds(ShutdownGrace),
		DrainSeconds:                  seconds(DrainTimeout),
		TerminationGracePeriodSeconds: seconds(terminationGracePeriod()),
		PodSecurityContext:            PodSecurityContext,
		ContainerSecurityContext:      ContainerSecurityContext,
		MemoryLimitEnv:                ContainerMemoryLimitEnv,
		MetricsNamespaceSelector:      MetricsNamespaceSelector,
	}
}

// terminationGracePeriod covers the whole shutdown, with slack: cut
// shorter, SIGKILL would end requests the webhook is still draining.
func terminationGracePeriod() time.Duration {
	return PreStop + ShutdownGrace + DrainTimeout + terminationSlack
}

// seconds is d in whole seconds, as the manifests write durations.
func seconds(d time.Duration) int { return int(d / time.Second) }
