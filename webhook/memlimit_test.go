package webhook

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"
)

// env is an environment of its pairs, for lookupEnv.
func env(pairs ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestMemoryLimitKeepsHeadroomUnderTheContainersLimit holds the Go soft
// limit Run sets to its precedence: the user's GOMEMLIMIT, else 80% of the
// container's limit, else none.
func TestMemoryLimitKeepsHeadroomUnderTheContainersLimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		lookup func(string) (string, bool)
		want   memoryLimit
	}{
		{"container limit", env(ContainerMemoryLimitEnv, "134217728"), memoryLimit{107374182, ContainerMemoryLimitEnv}},
		{"not a multiple of 100", env(ContainerMemoryLimitEnv, "999"), memoryLimit{799, ContainerMemoryLimitEnv}},
		{"largest", env(ContainerMemoryLimitEnv, "9223372036854775807"), memoryLimit{7378697629483820645, ContainerMemoryLimitEnv}},
		{"GOMEMLIMIT is the user's", env("GOMEMLIMIT", "1GiB", ContainerMemoryLimitEnv, "134217728"), memoryLimit{0, "GOMEMLIMIT"}},
		{"GOMEMLIMIT=off is the user's too", env("GOMEMLIMIT", "off", ContainerMemoryLimitEnv, "134217728"), memoryLimit{0, "GOMEMLIMIT"}},
		{"empty GOMEMLIMIT is unset, as for the runtime", env("GOMEMLIMIT", "", ContainerMemoryLimitEnv, "1000"), memoryLimit{800, ContainerMemoryLimitEnv}},
		{"neither", env(), memoryLimit{0, "none"}},
	} {
		got, err := memoryLimitFrom(c.lookup)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

func TestMemoryLimitRefusesAContainerLimitThatIsNoNumberOfBytes(t *testing.T) {
	for _, v := range []string{"128Mi", "0", "-1", "1.5e8"} {
		o := options(t, io.Discard, local...)
		o.lookupEnv = env(ContainerMemoryLimitEnv, v)
		if err := o.complete(); err == nil || !strings.Contains(err.Error(), ContainerMemoryLimitEnv) {
			t.Errorf("%s=%s: complete() = %v, want an error naming it", ContainerMemoryLimitEnv, v, err)
		}
	}
}

// TestTheBudgetFollowsTheSoftLimit sets, as Run does, the Go limit from a
// container's limit, and checks that the in-flight budget derives from the
// soft limit, not from the container's.
func TestTheBudgetFollowsTheSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	o := options(t, io.Discard, local...)
	o.lookupEnv = env(ContainerMemoryLimitEnv, "1000000000")
	if err := o.complete(); err != nil {
		t.Fatal(err)
	}
	if got := o.memory.apply(); got != 800000000 {
		t.Errorf("the Go memory limit is %d, want 800000000", got)
	}
	h, _, err := newHandler(HandlerOptions{}, []Kind{boxKind()})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.MaxInflightBytes(), int64(800000000/24); got != want {
		t.Errorf("the in-flight budget is %d, want %d (a 24th of the Go limit)", got, want)
	}
}
