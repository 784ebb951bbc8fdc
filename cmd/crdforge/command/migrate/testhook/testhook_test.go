package testhook

import (
	"context"
	"testing"
)

func TestAfterObject(t *testing.T) {
	ctx := context.Background()
	if AfterObject(ctx) != nil {
		t.Error("a plain context carries a hook")
	}
	if WithAfterObject(ctx, nil) != ctx {
		t.Error("a nil hook wrapped the context")
	}
	var got []int
	hooked := WithAfterObject(ctx, func(done int) { got = append(got, done) })
	f := AfterObject(hooked)
	if f == nil {
		t.Fatal("the hook did not come back")
	}
	f(1)
	f(2)
	if len(got) != 2 || got[1] != 2 {
		t.Errorf("calls %v, want [1 2]", got)
	}
	if AfterObject(ctx) != nil {
		t.Error("the parent context got the hook")
	}
}
