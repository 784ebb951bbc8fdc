package v2

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CronJobSpec defines the desired state of CronJob.
type CronJobSpec struct {
	// Schedule is the schedule in Cron format, see
	// https://en.wikipedia.org/wiki/Cron, one field at a time.
	Schedule CronSchedule `json:"schedule"`

	// StartingDeadlineSeconds is the deadline in seconds for starting the job
	// if it misses its scheduled time for any reason. Missed job executions
	// will be counted as failed ones.
	// +kubebuilder:validation:Minimum=0
	// +optional
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`

	// ConcurrencyPolicy specifies how to treat concurrent executions of a Job.
	// Valid values are:
	//   - "Allow" (default): allows CronJobs to run concurrently;
	//   - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
	//   - "Replace": cancels currently running job and replaces it with a new one
	// +kubebuilder:default=Allow
	// +optional
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`

	// Suspend tells the controller to suspend subsequent executions; it does
	// not apply to already started executions. Defaults to false.
	// +optional
	Suspend *bool `json:"suspend,omitempty"`

	// JobTemplate specifies the job that will be created when executing a
	// CronJob.
	JobTemplate batchv1.JobTemplateSpec `json:"jobTemplate"`

	// SuccessfulJobsHistoryLimit is the number of successful finished jobs to
	// retain. This is a pointer to distinguish between explicit zero and not
	// specified.
	// +kubebuilder:validation:Minimum=0
	// +optional
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`

	// FailedJobsHistoryLimit is the number of failed finished jobs to retain.
	// This is a pointer to distinguish between explicit zero and not
	// specified.
	// +kubebuilder:validation:Minimum=0
	// +optional
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// CronSchedule describes a Cron schedule. A field left out matches every
// value, like "*".
type CronSchedule struct {
	// Minute specifies the minute during which the job executes.
	// +optional
	Minute *CronField `json:"minute,omitempty"`

	// Hour specifies the hour during which the job executes.
	// +optional
	Hour *CronField `json:"hour,omitempty"`

	// DayOfMonth specifies the day of the month during which the job
	// executes.
	// +optional
	DayOfMonth *CronField `json:"dayOfMonth,omitempty"`

	// Month specifies the month during which the job executes.
	// +optional
	Month *CronField `json:"month,omitempty"`

	// DayOfWeek specifies the day of the week during which the job executes.
	// +optional
	DayOfWeek *CronField `json:"dayOfWeek,omitempty"`
}

// CronField is a Cron field specifier, such as "*", "*/5" or "1-5": printable
// ASCII characters without spaces, so that the five fields join into a v1
// schedule that splits back into the same five.
// +kubebuilder:validation:Pattern=`^[!-~]+$`
type CronField string

// ConcurrencyPolicy describes how the job will be handled. Only one of the
// following concurrent policies may be specified. If none of the following
// policies is specified, the default one is AllowConcurrent.
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

// The concurrency policies.
const (
	// AllowConcurrent allows CronJobs to run concurrently.
	AllowConcurrent ConcurrencyPolicy = "Allow"

	// ForbidConcurrent forbids concurrent runs, skipping next run if
	// previous hasn't finished yet.
	ForbidConcurrent ConcurrencyPolicy = "Forbid"

	// ReplaceConcurrent cancels currently running job and replaces it with
	// a new one.
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// CronJobStatus defines the observed state of CronJob.
type CronJobStatus struct {
	// Active is a list of pointers to currently running jobs.
	// +listType=atomic
	// +optional
	Active []corev1.ObjectReference `json:"active,omitempty"`

	// LastScheduleTime is the last time the job was successfully scheduled.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Suspend",type=boolean,JSONPath=`.spec.suspend`
// +kubebuilder:printcolumn:name="Last Schedule",type=date,JSONPath=`.status.lastScheduleTime`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// CronJob is the Schema for the cronjobs API. v2 splits the schedule into its
// fields; it converts to and from v1, the storage version and hub.
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronJobSpec   `json:"spec,omitempty"`
	Status CronJobStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// CronJobList contains a list of CronJob.
type CronJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronJob `json:"items"`
}
