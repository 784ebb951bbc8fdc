package webhook

import (
	"fmt"
	"runtime/debug"
	"strconv"
)

// ContainerMemoryLimitEnv names the environment variable that gives Run the
// container's memory limit in bytes: the generated Deployment and Helm
// chart set it from the downward API (resourceFieldRef limits.memory).
const ContainerMemoryLimitEnv = "CRDFORGE_CONTAINER_MEMORY_LIMIT"

// softLimitPercent is the share of the container's memory limit that Run
// sets as the Go runtime's soft memory limit. The rest is headroom: the Go
// limit counts only the runtime's own memory, not the binary's pages, which
// the kubelet counts too; and it is soft, so the heap overshoots it while
// the collector catches up. With GOMEMLIMIT at the container's limit, the
// load test's webhook peaked at 120–122 MiB of a 128 MiB limit.
const softLimitPercent = 80

// memoryLimit is the Go soft memory limit Run sets, and where it came from.
type memoryLimit struct {
	// bytes is the limit to set; 0 leaves the runtime's as it is.
	bytes int64
	// source says, for the log, what decided the limit.
	source string
}

// memoryLimitFrom decides the Go soft memory limit from the environment,
// which lookup reads (os.LookupEnv):
//
//  1. GOMEMLIMIT, when set, is the user's: the runtime has applied it, and
//     it stays, whatever the container's limit.
//  2. Otherwise ContainerMemoryLimitEnv, the container's limit in bytes:
//     softLimitPercent of it.
//  3. Otherwise none: the runtime has no limit.
//
// The in-flight budget follows whichever limit results, unless
// --max-inflight-bytes sets it.
func memoryLimitFrom(lookup func(string) (string, bool)) (memoryLimit, error) {
	if v, ok := lookup("GOMEMLIMIT"); ok && v != "" {
		return memoryLimit{source: "GOMEMLIMIT"}, nil
	}
	v, ok := lookup(ContainerMemoryLimitEnv)
	if !ok || v == "" {
		return memoryLimit{source: "none"}, nil
	}
	container, err := strconv.ParseInt(v, 10, 64)
	if err != nil || container <= 0 {
		return memoryLimit{}, fmt.Errorf("%s=%q: want the container's memory limit, a positive number of bytes", ContainerMemoryLimitEnv, v)
	}
	return memoryLimit{bytes: softLimitOf(container), source: ContainerMemoryLimitEnv}, nil
}

// softLimitOf is softLimitPercent of a container's memory limit, without
// overflowing at the largest limits.
func softLimitOf(container int64) int64 {
	return container/100*softLimitPercent + container%100*softLimitPercent/100
}

// apply sets the runtime's soft memory limit, when l sets one, and returns
// the limit in effect (math.MaxInt64 for none).
func (l memoryLimit) apply() int64 {
	if l.bytes > 0 {
		debug.SetMemoryLimit(l.bytes)
	}
	return debug.SetMemoryLimit(-1)
}
