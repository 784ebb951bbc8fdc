package jsonscan

import (
	"strconv"
	"testing"
)

// Elements counts the values of the array just begun on a tape, nested
// values each once, and says 0 off a tape or where no array was begun.
func TestElements(t *testing.T) {
	in := `{"a":[1,{"x":[2,3]},[4,[]],"s",null],"b":[],"c":{"d":[{"e":1}]}}`
	review, err := ParseReview([]byte(`{"request":{"objects":[` + in + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	o := &review.Request.Objects[0]
	var tape, bytes Tokens
	tape.ResetTape(o.Raw, o.Tape())
	got := map[string]int{}
	var walk func(path string)
	walk = func(path string) {
		switch tape.Peek() {
		case '[':
			_ = tape.Begin('[')
			got[path] = tape.Elements()
			for i := 0; tape.Peek() != ']' && tape.Peek() != 0; i++ {
				walk(path + "/" + strconv.Itoa(i))
			}
			_ = tape.End()
		case '{':
			_ = tape.Begin('{')
			if n := tape.Elements(); n != 0 {
				t.Errorf("Elements of the object at %q = %d, want 0", path, n)
			}
			for tape.Peek() != '}' && tape.Peek() != 0 {
				name, _ := tape.Name()
				walk(path + "/" + string(name[1:len(name)-1]))
			}
			_ = tape.End()
		default:
			_, _ = tape.Value()
		}
	}
	walk("")
	if err := tape.Err(); err != nil || !tape.AtEnd() {
		t.Fatalf("walking the tape: %v", err)
	}
	want := map[string]int{"/a": 5, "/a/1/x": 2, "/a/2": 2, "/a/2/1": 0, "/b": 0, "/c/d": 1}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("Elements of %s = %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Elements were asked of %v, want %v", got, want)
	}
	bytes.Reset(o.Raw)
	if err := bytes.Begin('{'); err != nil || bytes.Elements() != 0 {
		t.Errorf("Elements off a tape = %d, %v; want 0", bytes.Elements(), err)
	}
}
