// Package v1 holds the CronJob's defaulting and validating webhooks, as the
// kubebuilder tutorial's.
package v1

// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1

// CronJobCustomDefaulter sets the CronJob's defaults.
type CronJobCustomDefaulter struct {
	DefaultSchedule string
}

// +kubebuilder:webhook:path=/validate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-batch-v1-job,mutating=false,failurePolicy=ignore,sideEffects=None,groups=batch,resources=jobs,verbs=create,versions=v1,name=vjob-v1.kb.io,admissionReviewVersions=v1;v1beta1,timeoutSeconds=5,matchPolicy=Equivalent

// CronJobCustomValidator validates CronJobs.
type CronJobCustomValidator struct{}
