package diag

import "strings"

// AndList joins names (at least one) as "A", "A and B" or "A, B and C".
func AndList(names []string) string {
	last := names[len(names)-1]
	if len(names) == 1 {
		return last
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + last
}
