package diff

import (
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestEqualNodeKeys: objects are equal when every key holds equal values as
// JSON.parse leaves them (the last of a repeated key wins), whatever the
// members' order; a repeated key's earlier, shadowed values do not count.
func TestEqualNodeKeys(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":{"c":[1,2]}}`, `{"a":1,"b":{"c":[1,2]}}`, true},
		{`{"a":1,"b":{"c":[1,2]}}`, `{"a":1,"b":{"c":[1,3]}}`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},             // another order
		{`{"a":1,"b":2}`, `{"b":2,"a":3}`, false},            // another order, a value changed
		{`{"a":1,"a":2}`, `{"a":3,"a":2}`, true},             // the shadowed value differs
		{`{"a":1,"a":2}`, `{"a":1,"a":3}`, false},            // the kept value differs
		{`{"a":1,"b":5,"a":2}`, `{"a":9,"b":5,"a":2}`, true}, // shadowed, apart
		{`{"a":1,"b":5,"a":2}`, `{"a":1,"b":6,"a":2}`, false},
		{`{"a":1,"a":2}`, `{"a":2,"b":2}`, true}, // as many members: only the first side's keys are asked (as before)
		{`{"a":1,"b":2}`, `{"a":1,"c":2}`, false},
	} {
		a, b := compile.ParseDoc("a.json", []byte(c.a)).Root, compile.ParseDoc("b.json", []byte(c.b)).Root
		if a == nil || b == nil {
			t.Fatalf("%s or %s did not parse", c.a, c.b)
		}
		if got := equalNode(a, b); got != c.want {
			t.Errorf("equalNode(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := equalMembers(a, b); got != c.want {
			t.Errorf("equalMembers(%s, %s) = %v, want %v (the look-up per key)", c.a, c.b, got, c.want)
		}
	}
}
