package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// READMESteps returns the shell lines of the README's adoption block (the
// one after the comment that names e2e/newcomer_test.go), continuation
// lines joined: the steps a user takes, which tests take word for word.
func READMESteps(readme string) ([]string, error) {
	f, err := os.Open(readme)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var steps []string
	state, cont := 0, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case state == 0 && strings.HasPrefix(line, "<!-- e2e/newcomer_test.go runs"):
			state = 1
		case state == 1 && line == "```sh":
			state = 2
		case state == 2 && line == "```":
			state = 3
		case state == 2:
			if strings.HasSuffix(line, `\`) {
				cont += strings.TrimSuffix(line, `\`) + " "
				continue
			}
			steps = append(steps, strings.TrimSpace(cont+line))
			cont = ""
		}
	}
	if state != 3 || len(steps) == 0 {
		return nil, fmt.Errorf("%s: no setup block after the e2e marker", readme)
	}
	return steps, sc.Err()
}
