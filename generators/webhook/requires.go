package webhook

import "github.com/crdforge/crdforge/internal/minimums"

// Requires is what the main needs of the module it is in: it imports
// crdforge's webhook module.
func (Generator) Requires() minimums.Needs { return minimums.Webhook }
