package helm_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/pipeline"
)

// The chart's webhook pod shuts down as the kustomization's does (deploy's
// test holds those figures to the webhook): the same preStop sleep,
// --shutdown-grace-period and terminationGracePeriodSeconds, from deploy's
// constants, not set apart in the chart's templates.
func TestChartPodShutsDownAsDeploysDoes(t *testing.T) {
	res, err := pipeline.Generate(pipeline.Config{Dir: "../../examples/crontab", Only: []string{"helm"}})
	if err != nil {
		t.Fatal(err)
	}
	var deployment string
	for _, f := range res.Files {
		if filepath.Base(f.Path) == "deployment.yaml" && filepath.Base(filepath.Dir(f.Path)) == "templates" {
			deployment = string(f.Content)
		}
	}
	if deployment == "" {
		t.Fatal("the chart has no templates/deployment.yaml")
	}
	pod := deploy.WebhookPod()
	for _, want := range []string{
		fmt.Sprintf("\n      terminationGracePeriodSeconds: %d\n", pod.TerminationGracePeriodSeconds),
		fmt.Sprintf("\n        - --shutdown-grace-period=%ds\n", pod.ShutdownGraceSeconds),
		fmt.Sprintf("\n            sleep:\n              seconds: %d\n", pod.PreStopSeconds),
	} {
		if !strings.Contains(deployment, want) {
			t.Errorf("templates/deployment.yaml lacks %q:\n%s", want, deployment)
		}
	}
	if slack := pod.TerminationGracePeriodSeconds - pod.PreStopSeconds - pod.ShutdownGraceSeconds - pod.DrainSeconds; slack <= 0 {
		t.Errorf("terminationGracePeriodSeconds %d leaves no slack after preStop, grace and drain (%+v)", pod.TerminationGracePeriodSeconds, pod)
	}
}
