package dockerfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// Lint parses a Dockerfile with buildkit's parser and returns what it finds
// wrong with it as the webhook's image recipe.
func Lint(content []byte) []string {
	res, err := parser.Parse(bytes.NewReader(content))
	if err != nil {
		return []string{"does not parse: " + err.Error()}
	}
	var problems []string
	for _, w := range res.Warnings {
		problems = append(problems, fmt.Sprintf("line %d: %s", w.Location.Start.Line, w.Short))
	}
	type stage struct {
		from, name string
		cmds       []*parser.Node
	}
	var stages []*stage
	for _, n := range res.AST.Children {
		cmd := strings.ToLower(n.Value)
		if cmd == "from" {
			s := &stage{}
			args := words(n)
			if len(args) > 0 {
				s.from = args[0]
			}
			if len(args) == 3 && strings.EqualFold(args[1], "as") {
				s.name = args[2]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			problems = append(problems, fmt.Sprintf("line %d: %s before any FROM", n.StartLine, n.Value))
			continue
		}
		stages[len(stages)-1].cmds = append(stages[len(stages)-1].cmds, n)
	}
	if len(stages) != 2 {
		return append(problems, fmt.Sprintf("want a multi-stage build of two stages (build, then the image), got %d", len(stages)))
	}
	buildStage, final := stages[0], stages[1]
	if !strings.HasPrefix(buildStage.from, "golang:") || buildStage.name == "" {
		problems = append(problems, fmt.Sprintf("the first stage should be a named golang: stage, not FROM %s", buildStage.from))
	}
	static := false
	for _, n := range buildStage.cmds {
		line := strings.Join(words(n), " ")
		if strings.EqualFold(n.Value, "run") && strings.Contains(line, "go build") {
			static = strings.Contains(line, "CGO_ENABLED=0") && strings.Contains(line, "-trimpath")
		}
	}
	if !static {
		problems = append(problems, "the build stage does not build a static binary: want RUN CGO_ENABLED=0 go build -trimpath ...")
	}
	if !strings.Contains(final.from, "distroless/static") || !strings.HasSuffix(final.from, ":nonroot") {
		problems = append(problems, fmt.Sprintf("the image should be based on a distroless static nonroot image, not %s", final.from))
	}
	user, copied, entry := "", false, false
	for _, n := range final.cmds {
		switch strings.ToLower(n.Value) {
		case "user":
			user = strings.Join(words(n), " ")
		case "copy":
			copied = copied || slicesContains(n.Flags, "--from="+buildStage.name)
		case "entrypoint":
			entry = n.Attributes["json"]
		case "run":
			problems = append(problems, fmt.Sprintf("line %d: RUN in the final stage: a distroless image has no shell", n.StartLine))
		}
	}
	if user == "" || user == "root" || user == "0" || strings.HasPrefix(user, "0:") || strings.HasPrefix(user, "root:") {
		problems = append(problems, fmt.Sprintf("the image must run as a non-root user (USER 65532:65532 or nonroot), not %q", user))
	}
	if !copied {
		problems = append(problems, "the final stage copies nothing --from the build stage")
	}
	if !entry {
		problems = append(problems, "the final stage needs an exec-form ENTRYPOINT [\"/webhook\"]")
	}
	return problems
}

// words are a node's arguments.
func words(n *parser.Node) []string {
	var out []string
	for a := n.Next; a != nil; a = a.Next {
		out = append(out, a.Value)
	}
	return out
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
