// Package controller reconciles CronJobs, as the kubebuilder tutorial's.
package controller

import "context"

// CronJobReconciler reconciles a CronJob object.
type CronJobReconciler struct{}

// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get
// +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch

// Reconcile moves the cluster toward the CronJob's spec.
func (r *CronJobReconciler) Reconcile(ctx context.Context, name string) error {
	return ctx.Err()
}
