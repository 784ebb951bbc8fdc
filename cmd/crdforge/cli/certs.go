package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crdforge/crdforge/cmd/crdforge/command/certs"
	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/webhook/pki"
)

// DefaultCertsDir is where crdforge certs writes unless --out says otherwise.
const DefaultCertsDir = "config/webhook/certs"

func newCerts(stderr io.Writer) *cobra.Command {
	c := certsRun{stderr: stderr}
	cmd := &cobra.Command{
		Use:         "certs [packages...]",
		Short:       "Write the conversion webhook's certificates, for clusters without cert-manager",
		Long:        certsHelp,
		Annotations: map[string]string{DocsAnnotation: "webhook.md#shipping-the-webhook"},
		Example: `  # A serving certificate that also works for a webhook run on this machine
  crdforge certs --host 127.0.0.1 --host localhost

  # A new CA as well (every CRD's caBundle changes)
  crdforge certs --force-ca

  # Only a new serving certificate, from the CA --out holds
  crdforge certs --renew`,
		RunE: func(_ *cobra.Command, args []string) error { return c.run(args) },
	}
	f := cmd.Flags()
	f.StringVar(&c.out, "out", DefaultCertsDir, "directory to write into, relative to the current directory")
	f.StringArrayVar(&c.hosts, "host", nil, "another DNS name or IP address (such as 127.0.0.1, for a webhook run on this machine) for the serving certificate (repeatable)")
	f.DurationVar(&c.validFor, "valid-for", 365*24*time.Hour, "how long the serving certificate is valid")
	f.DurationVar(&c.caValidFor, "ca-valid-for", deploy.CADuration, "how long a new CA is valid")
	f.BoolVar(&c.forceCA, "force-ca", false, "make a new CA even when --out holds one")
	f.BoolVar(&c.renew, "renew", false, "issue only a new serving certificate (tls.crt, tls.key, secret.yaml) with the CA --out holds, failing when it holds none")
	return cmd
}

// certsRun is one run of crdforge certs: its flags and where it prints.
type certsRun struct {
	out                  string
	hosts                []string
	validFor, caValidFor time.Duration
	forceCA              bool
	// renew re-issues the serving certificate alone, with the CA that
	// exists: never a new CA, which would change every CRD's caBundle.
	renew  bool
	stderr io.Writer
}

func (c *certsRun) run(args []string) error {
	dir, err := workingDir()
	if err != nil {
		return err
	}
	w, main, err := c.webhook(dir, args)
	if err != nil {
		return err
	}
	outDir := c.out
	if !filepath.IsAbs(outDir) {
		outDir = filepath.Join(dir, outDir)
	}
	if err := keysOutOfBuild(dir, outDir, main); err != nil {
		return err
	}
	if c.validFor <= 0 {
		return fmt.Errorf("--valid-for must be positive, not %s", c.validFor)
	}
	if c.renew && c.forceCA {
		return errors.New("--renew keeps the CA, --force-ca replaces it: give one of them")
	}
	now := time.Now()
	ca, reused, err := c.ca(outDir, deploy.CACommonName(w), now)
	if err != nil {
		return err
	}
	names := pki.ServiceDNSNames(w.Service, w.Namespace)
	for _, h := range c.hosts {
		if !slices.Contains(names, h) {
			names = append(names, h)
		}
	}
	serving, err := ca.Issue(names, now, c.validFor)
	if err != nil {
		return fmt.Errorf("issuing the serving certificate: %w; run with --force-ca to make a new CA", err)
	}
	if ca.Cert.NotAfter.Before(now.Add(c.validFor)) {
		printErrf(c.stderr, "crdforge certs: warning: the CA expires at %s, and the serving certificate with it; --force-ca makes a new CA",
			ca.Cert.NotAfter.UTC().Format(time.RFC3339))
	}
	files, written, err := certsFiles(w, ca, serving, reused, c.renew, outDir)
	if err != nil {
		return err
	}
	changes, err := output.Plan(dir, files)
	if err != nil {
		return err
	}
	if err := output.Write(changes); err != nil {
		return err
	}
	shown := outDir
	if r, err := filepath.Rel(dir, outDir); err == nil && filepath.IsLocal(r) {
		shown = r
	}
	if reused {
		printErrf(c.stderr, "reused the CA in %s (valid until %s)", filepath.Join(shown, "ca.crt"), ca.Cert.NotAfter.UTC().Format(time.DateOnly))
	}
	// Every file now holds what this run made, whether or not its bytes
	// changed.
	for _, name := range written {
		printErr(c.stderr, "wrote", filepath.Join(shown, name))
	}
	return nil
}

// webhook is the conversion webhook of the packages args name in dir, and
// where the project's webhook main goes (--webhook-main), beside which
// crdforge generate writes the Dockerfile.
//
// The crd generator checks the CRDs this command writes too; the model
// resolves the webhook, as it does for the deploy generator. The project's
// settings (.crdforge.yaml) shape the CRDs as they do for crdforge
// generate, so that both write the same schemas.
func (c *certsRun) webhook(dir string, args []string) (*model.Webhook, string, error) {
	w, cfg, err := c.resolve(dir, args)
	main := cfg.WebhookMain
	if main == "" {
		main = pipeline.DefaultWebhookMain
	}
	return w, main, err
}

// resolve runs the crd generator over args as the project configures it.
func (c *certsRun) resolve(dir string, args []string) (*model.Webhook, pipeline.Config, error) {
	cfg, err := projectConfig(dir, c.stderr)
	if err != nil {
		return nil, cfg, err
	}
	cfg.Patterns, cfg.Only, cfg.Resolve = args, []string{"crd"}, model.Options{Webhook: true}
	cfg.ValidationRecord = validationRecord(c.stderr)
	res, err := pipeline.Generate(cfg)
	if err != nil {
		return nil, cfg, err
	}
	for _, item := range res.Diags.Items() {
		printErr(c.stderr, item.Format(dir))
	}
	if res.Diags.HasErrors() {
		return nil, cfg, exitError{ExitErrors}
	}
	if res.Model.Webhook == nil {
		printErr(c.stderr, "crdforge certs: no kind converts through a webhook, so there is no webhook to make certificates for")
		return nil, cfg, exitError{ExitErrors}
	}
	return res.Model.Webhook, cfg, nil
}

// certsFiles are the files crdforge certs writes into outDir, and their
// names. Every file is crdforge's, though keys and certificates carry no
// generated-file header; keys, and the Secret that holds one, are readable
// by their owner only. A reused CA is not written again; leafOnly writes
// the serving certificate and its Secret alone.
func certsFiles(w *model.Webhook, ca *pki.CA, serving *pki.Serving, reused, leafOnly bool, outDir string) ([]output.File, []string, error) {
	secret, err := certs.Secret{Name: w.SecretName, Namespace: w.Namespace, App: w.App, Project: w.Project,
		CACert: ca.CertPEM, Cert: serving.CertPEM, Key: serving.KeyPEM}.Manifest()
	if err != nil {
		return nil, nil, err
	}
	var files []output.File
	var written []string
	add := func(name string, content []byte, mode fs.FileMode) {
		files = append(files, output.File{Path: filepath.Join(outDir, name), Content: content, Mode: mode, Owned: true})
		written = append(written, name)
	}
	if !reused {
		add("ca.crt", ca.CertPEM, 0o644)
		add("ca.key", ca.KeyPEM, 0o600)
	}
	add("tls.crt", serving.CertPEM, 0o644)
	add("tls.key", serving.KeyPEM, 0o600)
	add("secret.yaml", secret, 0o600)
	if leafOnly {
		return files, written, nil
	}
	var crdFiles []string
	for _, k := range w.Kinds {
		b, err := certs.CRDWithCABundle(k, ca.CertPEM)
		if err != nil {
			return nil, nil, err
		}
		add(deploy.CRDFile(k), b, 0o644)
		crdFiles = append(crdFiles, deploy.CRDFile(k))
	}
	add("kustomization.yaml", certsComponent(crdFiles), 0o644)
	add(".gitignore", []byte(gitignore), 0o644)
	return files, written, nil
}

// certsComponent is the kustomize Component that the generated
// without-cert-manager overlay includes: the Secret, and the CRDs' caBundle
// (each CRD copy patches the CRD of the same name).
func certsComponent(crdFiles []string) []byte {
	var b strings.Builder
	b.WriteString("# Written by crdforge certs: the webhook's Secret and the CRDs' caBundle, for\n" +
		"# kubectl apply -k on the generated <config/webhook>-without-cert-manager overlay.\n" +
		"apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- secret.yaml\n")
	if len(crdFiles) > 0 {
		b.WriteString("patches:\n")
		for _, f := range crdFiles {
			b.WriteString("- path: " + f + "\n")
		}
	}
	return []byte(b.String())
}

const gitignore = `# Written by crdforge certs: private keys and what embeds them. Not for committing.
*
`

// ca is the CA the run signs with, and whether it was in dir: with
// --renew the one in dir, which must be there; else that one unless
// --force-ca is given or there is none, then a new one.
func (c *certsRun) ca(dir, commonName string, now time.Time) (ca *pki.CA, reused bool, err error) {
	if c.renew {
		ca, err := existingCA(dir)
		if err == nil && ca == nil {
			err = fmt.Errorf("--renew: %s holds no CA (ca.crt and ca.key); run crdforge certs without --renew to make one, which gives every CRD a new caBundle", dir)
		}
		return ca, ca != nil, err
	}
	return loadOrMakeCA(dir, c.forceCA, commonName, now, c.caValidFor)
}

// loadOrMakeCA reuses the CA in dir unless force is set or there is none.
func loadOrMakeCA(dir string, force bool, commonName string, now time.Time, validFor time.Duration) (ca *pki.CA, reused bool, err error) {
	if !force {
		if ca, err := existingCA(dir); err != nil || ca != nil {
			return ca, ca != nil, err
		}
	}
	if validFor <= 0 {
		return nil, false, fmt.Errorf("--ca-valid-for must be positive, not %s", validFor)
	}
	ca, err = pki.NewCA(commonName, now, validFor)
	return ca, false, err
}

// existingCA is the CA in dir, or nil when dir holds neither ca.crt nor
// ca.key.
func existingCA(dir string) (*pki.CA, error) {
	crtPath, keyPath := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")
	crt, crtErr := os.ReadFile(crtPath)
	key, keyErr := os.ReadFile(keyPath)
	switch {
	case crtErr == nil && keyErr == nil:
		ca, err := pki.LoadCA(crt, key)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w; fix or remove them, or run with --force-ca to make a new CA", crtPath, keyPath, err)
		}
		return ca, nil
	case errors.Is(crtErr, fs.ErrNotExist) && errors.Is(keyErr, fs.ErrNotExist):
		return nil, nil
	case crtErr != nil && !errors.Is(crtErr, fs.ErrNotExist):
		return nil, crtErr
	case keyErr != nil && !errors.Is(keyErr, fs.ErrNotExist):
		return nil, keyErr
	default:
		return nil, fmt.Errorf("%s holds only one of ca.crt and ca.key; restore the other, or run with --force-ca to make a new CA", dir)
	}
}

// certsHelp is `crdforge certs --help`.
const certsHelp = `Certs is for clusters without cert-manager. It loads the named Go packages as
generate does (default ./...), finds the conversion webhook's Service, and
writes into --out:

  ca.crt, ca.key      a CA (ECDSA P-256), made once and reused on later runs
                      unless --force-ca is given;
  tls.crt, tls.key    a serving certificate signed by that CA for the
                      Service's DNS names (<service>, <service>.<namespace>,
                      <service>.<namespace>.svc and .svc.cluster.local) and
                      every --host, issued anew on every run (--renew: that
                      alone, with the CA --out holds, and its Secret);
  secret.yaml         the Secret <service>-cert (type kubernetes.io/tls, with
                      tls.crt, tls.key and ca.crt) that the webhook mounts;
  <group>_<plural>.yaml
                      each webhook-converted CRD, with the CA as its
                      conversion caBundle instead of cert-manager's
                      inject-ca-from annotation;
  .gitignore          ignoring all of the above: keys are not for committing.

The CRDs trust the CA, not the serving certificate: a new serving
certificate from the same CA changes no caBundle. --renew issues it alone,
refusing to make a CA when --out holds none; apply the new secret.yaml, and
the API server trusts the old and the new certificate while the kubelet
updates the mounted Secret.

Key files and secret.yaml are written with mode 0600; every file goes through
a temporary file and a rename. Inside a Docker build context (the nearest
directory above --out holding go.mod or a Dockerfile) certs writes nothing
unless the context has a .dockerignore or crdforge generate has written the
webhook Dockerfile's own, Dockerfile.dockerignore: docker build would send
the keys to the builder. The CRDs' schemas follow the project's
.crdforge.yaml, as crdforge generate's do. Then, for example:

  kubectl apply -f config/webhook/namespace.yaml
  kubectl apply -f config/webhook/certs/
  kubectl apply -f config/webhook/service.yaml -f config/webhook/deployment.yaml -f config/webhook/pdb.yaml

Exit codes: 0 ok, 2 errors.`
