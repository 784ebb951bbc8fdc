package apigen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
	"github.com/crdforge/crdforge/generators/webhook"
	"github.com/crdforge/crdforge/internal/apigen"
	"github.com/crdforge/crdforge/internal/settings"
)

// shortSeeds are the seeds test-unit draws (a seed draws the same API and
// objects every time, as long as the drawing code stays as it is): before
// issue 58's fixes, 14 of the 16 seeds it drew first failed (1, 3, 6, 8, 9,
// 10, 11, 15, 16, 17, 19, 20, 22, 23), and 24 and 25 failed until an
// embedded pointer that JSON hides stopped leaving a stash behind. Seed
// 52 failed until apicheck took a zero value generate warned the storage
// version leaves out (its v1 until: 0) for no loss. Seed 45 failed until
// a nested pair's loss that the enclosing struct carries (a hubfield move
// out of it) stopped counting, and 174312814 until the narrowing check
// stopped repeating an enum's "" (go vet). Seeds 174312854 and 71 failed
// until the stash kept what a destination's JSON drops though Go keeps it
// (an inline embedded pointer to a struct that writes nothing; an omitzero
// Quantity of "0"), and 57 until a narrowing's fill function stopped
// filling a json:"-" field beside it. 477373812, 477373870 and 477374021
// failed until the stash kept an omitzero struct's zero-ness where JSON of
// its members does not show it (a zero Quantity written "0", a "0" an
// omitzero leaves out, an empty list omitempty leaves out; zeroshown.go),
// and 381659405 until apicheck read an object at its own version without
// a trip through the hub in memory, and 290104160 until a value JSON
// leaves out on both sides (an omitzero *Quantity of "0") stopped being
// stashed. 290104233 failed until a value stored whole kept the zero-ness
// of such a struct inside it (keepzero.go), and 290104304 until the round
// trip was read without the nulls the API server drops that allocate an
// embedded pointer. 681509841 and 681510053 failed until a stashed field
// counted as unchanged only where it is nil where JSON shows it in the
// same places (nilsagree.go), and 681510097 until an embedded pointer that
// makes an omitzero struct non-zero was stashed though it shows nothing.
// 418734725 failed until an edit from nil to [] inside a stashed struct
// won over the stash (mergeStruct), and 418734724 until apicheck took the
// object the client sent, kept whole by the stash, for a round trip's
// answer where encoding/json reads it back with less, and 762685199 until
// it took each member from either (memberwise).
var shortSeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 45, 52, 57, 71, 174312814, 174312854, 477373812, 477373870, 477374021, 381659405, 290104160, 290104233, 290104304, 681509841, 681510053, 681510097, 418734724, 418734725, 762685199}

// shortRefusals are the seeds of shortSeeds generate refuses: any other
// refusal is a change in what generate accepts, which the test reports, so
// that a generator refusing everything cannot pass it.
var shortRefusals = []uint64{6, 12, 13, 21}

const modulePath = "github.com/crdforge/crdforge"

// TestRandomAPIs draws an API per seed, generates it, and holds the output
// to crdforge's promise: generate writes it or refuses with positioned
// errors; it vets and builds; its generated round-trip tests pass; and the
// webhook converts drawn objects as the Go conversion and encoding/json do,
// and gives them back (package apicheck).
//
// CRDFORGE_APIGEN_SEEDS names other seeds ("1-200", "7,19"), and
// CRDFORGE_APIGEN_FOR draws batches of new seeds for that long ("1h"):
// make fuzz-apis. CRDFORGE_APIGEN_KEEP keeps the drawn trees.
func TestRandomAPIs(t *testing.T) {
	if d := os.Getenv("CRDFORGE_APIGEN_FOR"); d != "" {
		runFor(t, d)
		return
	}
	seeds := shortSeeds
	if s := os.Getenv("CRDFORGE_APIGEN_SEEDS"); s != "" {
		seeds = parseSeeds(t, s)
	}
	refused := runBatch(t, seeds)
	if os.Getenv("CRDFORGE_APIGEN_SEEDS") == "" && !slices.Equal(refused, shortRefusals) {
		t.Errorf("generate refused seeds %v, want %v", refused, shortRefusals)
	}
}

// runFor draws batches of 16 new seeds, from the clock, until d has passed.
func runFor(t *testing.T, d string) {
	dur, err := time.ParseDuration(d)
	if err != nil {
		t.Fatal(err)
	}
	end, next := time.Now().Add(dur), uint64(time.Now().UnixNano()%1e9)
	for batch := 1; time.Now().Before(end); batch++ {
		seeds := make([]uint64, 16)
		for i := range seeds {
			seeds[i] = next
			next++
		}
		t.Run("batch"+strconv.Itoa(batch), func(t *testing.T) { runBatch(t, seeds) })
	}
}

func parseSeeds(t *testing.T, s string) []uint64 {
	var seeds []uint64
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(strings.TrimSpace(lo), 10, 64)
		if err != nil {
			t.Fatalf("CRDFORGE_APIGEN_SEEDS: %v", err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(strings.TrimSpace(hi), 10, 64); err != nil {
				t.Fatalf("CRDFORGE_APIGEN_SEEDS: %v", err)
			}
		}
		for s := a; s <= b; s++ {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// drawn is an API generated in the batch's tree.
type drawn struct {
	api *apigen.API
	dir string // relative to the module's root
	// webhookKinds are the kinds the generated webhook converts.
	webhookKinds []string
	// zeroDrops are the fields generate warned that the storage version
	// leaves out the zero value of (apicheck.Case.ZeroDrops).
	zeroDrops []string
}

// runBatch generates the seeds' APIs in one tree of the module and builds,
// vets and tests them with one go command each. It returns the seeds
// generate refused.
func runBatch(t *testing.T, seeds []uint64) []uint64 {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scratch := filepath.Join(root, "testdata", "_scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	tree, err := os.MkdirTemp(scratch, "apigen-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CRDFORGE_APIGEN_KEEP") == "" {
		t.Cleanup(func() {
			if err := os.RemoveAll(tree); err != nil {
				t.Error(err)
			}
		})
	} else {
		t.Logf("drawn APIs kept in %s", tree)
	}
	var batch []drawn
	var refused []uint64
	objects := 0
	for _, seed := range seeds {
		d, ok := generate(t, root, tree, seed)
		if !ok {
			refused = append(refused, seed)
			continue
		}
		objects += writeObjects(t, root, d)
		batch = append(batch, d)
	}
	failed := map[uint64]bool{}
	out, err := goCmd(tree, "vet", packages(batch)...)
	for _, seed := range seedsIn(out) {
		failed[seed] = true
	}
	if err != nil && len(failed) == 0 {
		t.Fatalf("go vet of the drawn APIs failed, on no seed's package:\n%s", out)
	}
	if len(failed) > 0 {
		t.Errorf("go vet of the drawn APIs failed on seeds %v:\n%s", slices.Sorted(maps.Keys(failed)), out)
	}
	batch = slices.DeleteFunc(batch, func(d drawn) bool { return failed[d.api.Seed] })
	writeCheck(t, tree, batch)
	if out, err := goCmd(tree, "vet", "./check"); err != nil {
		t.Fatalf("go vet of the batch's check:\n%s", out)
	}
	out, err = goCmd(tree, "test", append([]string{"-count=1", "-vet=off"}, append(packages(batch), "./check")...)...)
	if err != nil {
		seeds := seedsIn(out)
		t.Errorf("the tests of the drawn APIs failed on seeds %v:\n%s", seeds, out)
		for _, seed := range seeds {
			failed[seed] = true
		}
	}
	t.Logf("%d APIs drawn (seeds %v): %d refused with positioned errors, %d failed %v; %d objects converted to each other version",
		len(seeds), seeds, len(refused), len(failed), slices.Sorted(maps.Keys(failed)), objects)
	return refused
}

// packages are the Go packages of the batch's APIs, relative to its tree.
func packages(batch []drawn) []string {
	var pkgs []string
	for _, d := range batch {
		for _, v := range d.api.Versions {
			pkgs = append(pkgs, fmt.Sprintf("./s%d/api/%s", d.api.Seed, v))
		}
		if len(d.webhookKinds) > 0 {
			pkgs = append(pkgs, fmt.Sprintf("./s%d/cmd/webhook/...", d.api.Seed))
		}
	}
	return pkgs
}

var seedPath = regexp.MustCompile(`(?:^|[\s/])s(\d+)/(?:api|cmd)/|--- FAIL: TestS(\d+)\b`)

// seedsIn lists the seeds whose packages or checks the go command's output
// names in a failure.
func seedsIn(out []byte) []uint64 {
	set := map[uint64]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "ok") || strings.Contains(line, "[no test files]") {
			continue
		}
		for _, m := range seedPath.FindAllStringSubmatch(line, -1) {
			n, _ := strconv.ParseUint(m[1]+m[2], 10, 64)
			set[n] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// generate draws the API of seed into tree and runs crdforge generate on
// it. It reports false when generate refused it, with positioned errors.
func generate(t *testing.T, root, tree string, seed uint64) (drawn, bool) {
	api := apigen.Draw(seed)
	dir := filepath.Join(tree, fmt.Sprintf("s%d", seed))
	files, err := api.Files()
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		writeFile(t, filepath.Join(dir, p), b)
	}
	var stdout, stderr bytes.Buffer
	t.Chdir(dir)
	// The generated codec, whatever the API's size: the webhook's answers
	// are held to encoding/json's, and auto would leave a large draw to
	// the reflection codec, which needs no such check.
	code := cli.Main([]string{"generate", settings.WebhookCodec.FlagIs(webhook.CodecGenerated), "./..."}, &stdout, &stderr)
	t.Chdir(root)
	switch code {
	case 0:
	case 2:
		t.Logf("seed %d refused: %s", seed, checkRefusal(t, seed, api, stderr.String()))
		return drawn{}, false
	default:
		t.Fatalf("seed %d: generate exited %d:\n%s\n%s", seed, code, stderr.String(), api)
	}
	rel, _ := filepath.Rel(root, dir)
	return drawn{api: api, dir: filepath.ToSlash(rel), webhookKinds: webhookKinds(t, dir), zeroDrops: zeroDrops(stderr.String())}, true
}

// zeroDropHelp is the help of generate's warning at a storage version's
// omitzero field that leaves out a zero value another version writes; it
// names that version's field.
var zeroDropHelp = regexp.MustCompile(`(?m)^\s+= help: give it the JSON options of (\w+ [\w.]+), or drop omitzero$`)

// zeroDrops lists the fields generate warned of in stderr, "<version>
// <Struct>.<Field>": a client's zero value there reads back absent, as
// generate said, and apicheck takes that for no loss.
func zeroDrops(stderr string) []string {
	var fields []string
	for _, m := range zeroDropHelp.FindAllStringSubmatch(stderr, -1) {
		fields = append(fields, m[1])
	}
	return fields
}

// checkRefusal holds generate's refusal of a drawn API to the promise:
// every diagnostic at file:line:col, and an error among them. Lines that
// start with "crdforge:" sum up (fields left unlisted, files written);
// indented ones are a diagnostic's notes. It returns the first error.
func checkRefusal(t *testing.T, seed uint64, api *apigen.API, stderr string) string {
	t.Helper()
	var first string
	for _, line := range strings.Split(stderr, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "crdforge: "):
		case !positioned(line):
			t.Errorf("seed %d: generate refused the API with an unpositioned line: %s\n%s", seed, line, api)
		case first == "" && !strings.Contains(line, ": warning: "):
			first = line
		}
	}
	if first == "" {
		t.Errorf("seed %d: generate exited 2 without a positioned error:\n%s\n%s", seed, stderr, api)
	}
	return first
}

// positioned reports whether line starts with file:line:col:.
func positioned(line string) bool {
	parts := strings.SplitN(line, ":", 4)
	if len(parts) < 4 || parts[0] == "" {
		return false
	}
	for _, n := range parts[1:3] {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	return true
}

var kindLine = regexp.MustCompile(`(?m)^\s+Kind:\s+"(\w+)",$`)

// webhookKinds reads the kinds the generated main converts.
func webhookKinds(t *testing.T, dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, "cmd", "webhook", "main.go"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range kindLine.FindAllSubmatch(b, -1) {
		kinds = append(kinds, string(m[1]))
	}
	return kinds
}

// writeObjects writes the API's drawn objects beside it; it returns how
// many the webhook converts.
func writeObjects(t *testing.T, root string, d drawn) int {
	objs := d.api.Objects(4)
	b, err := json.MarshalIndent(objs, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, d.dir, "objects.json"), b)
	n := 0
	for _, o := range objs {
		var head struct{ Kind string }
		_ = json.Unmarshal(o.Object, &head)
		if slices.Contains(d.webhookKinds, head.Kind) {
			n++
		}
	}
	return n
}

// writeCheck writes the batch's test of the webhooks, package check.
func writeCheck(t *testing.T, tree string, batch []drawn) {
	var src strings.Builder
	imports := map[string]string{
		"testing": "", "os": "",
		modulePath + "/internal/apigen/apicheck": "",
		modulePath + "/webhook":                  "",
		"k8s.io/apimachinery/pkg/runtime":        "kruntime",
	}
	for _, d := range batch {
		if len(d.webhookKinds) == 0 {
			continue
		}
		prefix := fmt.Sprintf("s%d", d.api.Seed)
		imports[modulePath+"/"+d.dir+"/cmd/webhook/jsoncodec"] = prefix + "codec"
		fmt.Fprintf(&src, "\nfunc Test%s(t *testing.T) {\n\tobjects, err := os.ReadFile(\"../%s/objects.json\")\n", strings.ToUpper(prefix[:1])+prefix[1:], prefix)
		src.WriteString("\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tapicheck.Run(t, apicheck.Case{Objects: objects, WithCodecs: " + prefix + "codec.With, ")
		fmt.Fprintf(&src, "ZeroDrops: %#v, Kinds: []webhook.Kind{\n", d.zeroDrops)
		for _, k := range d.api.Kinds {
			if !slices.Contains(d.webhookKinds, k.Name) {
				continue
			}
			fmt.Fprintf(&src, "\t\t{Group: %q, Kind: %q, Hub: %q, Versions: map[string]func() kruntime.Object{\n", d.api.Group, k.Name, d.api.Hub)
			for _, v := range d.api.Versions {
				alias := prefix + v
				imports[modulePath+"/"+d.dir+"/api/"+v] = alias
				fmt.Fprintf(&src, "\t\t\t%q: func() kruntime.Object { return new(%s.%s) },\n", v, alias, k.Name)
			}
			src.WriteString("\t\t}},\n")
		}
		src.WriteString("\t}})\n}\n")
	}
	var file strings.Builder
	file.WriteString("package check\n\nimport (\n")
	for _, p := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&file, "\t%s %q\n", imports[p], p)
	}
	file.WriteString(")\n" + src.String())
	writeFile(t, filepath.Join(tree, "check", "check_test.go"), []byte(file.String()))
	writeFile(t, filepath.Join(tree, "check", "doc.go"), []byte("// Package check runs apicheck on the batch's drawn APIs.\npackage check\n"))
}

// goCmd runs the go command in dir; the generated round-trip tests try
// fewer objects than by default, as many APIs share the run.
func goCmd(dir, verb string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", append([]string{verb}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CRDFORGE_ROUNDTRIP_ITERATIONS=300")
	return cmd.CombinedOutput()
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
