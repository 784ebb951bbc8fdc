package model

import (
	"fmt"
	"strings"
)

// Guard is what generated code verifies of a field's value before
// converting it: the constraints of the destination that the source does not
// guarantee. A nil slice or pointer means no constraint of that sort.
type Guard struct {
	// Path is the destination field's JSON path from the destination
	// struct ("storage.size").
	Path string
	// Enum lists the values a string may take.
	Enum []string
	// Min and Max bound an integer, inclusive.
	Min, Max *int64
	// ZeroOK says the zero value passes whatever the other constraints say:
	// the destination field is optional and omits it (omitempty), so the
	// API server sees no value to validate.
	ZeroOK bool
	// Required says a nil source pointer fails: the destination has no
	// pointer to leave nil, and its zero value does not validate.
	Required bool
}

// Describe says in words what the check allows: "one of Postgres, MySQL",
// "1 to 100".
func (c *Guard) Describe() string {
	var parts []string
	if c.Enum != nil {
		parts = append(parts, "one of "+strings.Join(c.Enum, ", "))
	}
	switch {
	case c.Min != nil && c.Max != nil:
		parts = append(parts, fmt.Sprintf("%d to %d", *c.Min, *c.Max))
	case c.Min != nil:
		parts = append(parts, fmt.Sprintf("at least %d", *c.Min))
	case c.Max != nil:
		parts = append(parts, fmt.Sprintf("at most %d", *c.Max))
	}
	if len(parts) == 0 && c.Required {
		return "a value"
	}
	return strings.Join(parts, ", ")
}
