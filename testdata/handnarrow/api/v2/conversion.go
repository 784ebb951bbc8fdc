package v2

// Hub marks Balancer as the hub of its hand-written conversions.
func (*Balancer) Hub() {}
