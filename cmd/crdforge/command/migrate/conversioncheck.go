package migrate

import (
	"context"
	"fmt"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

// checkConversion reads one object, if any, at every served version when
// the CRD converts with a webhook: reading an object at a version it is not
// stored at calls the webhook, and with two served versions at least one
// read is such. A failure refuses the run before anything changed.
func checkConversion(ctx context.Context, dyn dynamic.Interface, crd *apiextv1.CustomResourceDefinition, p *plan, res *Result) error {
	if !p.webhook {
		res.ConversionCheck = "conversion strategy None: no webhook to check"
		return nil
	}
	refuse := func(what string, err error) error {
		return fmt.Errorf("%w: %s: %v; nothing was changed (is the webhook of %s running and reachable from the API server?)", ErrConversion, what, err, crd.Name)
	}
	list, err := dyn.Resource(p.resource).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return refuse("listing at "+p.storage, err)
	}
	if len(list.Items) == 0 {
		res.ConversionCheck = "no objects: nothing to convert"
		return nil
	}
	obj := list.Items[0]
	var read []string
	for _, v := range p.served {
		if v == p.storage {
			continue
		}
		gvr := p.resource
		gvr.Version = v
		_, err := dyn.Resource(gvr).Namespace(obj.GetNamespace()).Get(ctx, obj.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue // deleted meanwhile; the list already converted it
		}
		if err != nil {
			return refuse(fmt.Sprintf("reading %s at %s", key(&obj), v), err)
		}
		read = append(read, v)
	}
	res.ConversionCheck = fmt.Sprintf("read %s at %s and %v", key(&obj), p.storage, read)
	return nil
}

// key names obj as kubectl does: ns/name, or name for a cluster-scoped one.
func key(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}

// CheckWebhook is the conversion check of a run, for crdforge status: it
// says what it read, or (an error wrapping ErrConversion) why the webhook
// does not answer. It writes nothing.
func CheckWebhook(ctx context.Context, dyn dynamic.Interface, crd *apiextv1.CustomResourceDefinition) (string, error) {
	p, err := planFor(crd)
	if err != nil {
		return "", err
	}
	var res Result
	err = checkConversion(ctx, dyn, crd, p, &res)
	return res.ConversionCheck, err
}
