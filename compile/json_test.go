package compile

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

func TestParsePositions(t *testing.T) {
	src := "{\n  \"a\": [1, {\"b~/c\": \"é\"}],\n  \"d\": null\n}"
	d := ParseDoc("x.json", []byte(src))
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	for _, tc := range []struct {
		ptr        string
		line, col  int
		wantExists bool
	}{
		{"", 1, 1, true},
		{"/a", 2, 8, true},
		{"/a/0", 2, 9, true},
		{"/a/1/b~0~1c", 2, 21, true},
		{"/d", 3, 8, true},
		{"/a/7", 2, 8, false}, // falls back to the deepest existing ancestor
	} {
		line, col := d.PointerPosition(tc.ptr)
		if line != tc.line || col != tc.col {
			t.Errorf("%q: got %d:%d, want %d:%d", tc.ptr, line, col, tc.line, tc.col)
		}
		if got := d.Lookup(tc.ptr) != nil; got != tc.wantExists {
			t.Errorf("%q: Lookup exists=%v, want %v", tc.ptr, got, tc.wantExists)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}", 2, 9}, // points at the comma
		{"unterminated", "{\"a\": ", 1, 7},
		{"garbage after", "{} x", 1, 4},
		{"empty", "", 1, 1},
		{"too deep", strings.Repeat("[", MaxDepth+5), 1, MaxDepth + 2},
	} {
		d := ParseDoc("x.json", []byte(tc.src))
		f := d.SyntaxFinding()
		if f == nil {
			t.Errorf("%s: parsed without error", tc.name)
			continue
		}
		if f.Code != "invalid_json" || f.Severity != Blocker {
			t.Errorf("%s: got %s/%s", tc.name, f.Code, f.Severity)
		}
		if wantRefused := tc.name == "too deep"; d.Err.Refused != wantRefused ||
			wantRefused != strings.HasPrefix(f.Message, "not read, beyond oastui's limits: ") {
			t.Errorf("%s: refused=%v, message %q", tc.name, d.Err.Refused, f.Message)
		}
		if f.Line != tc.line || f.Column != tc.col {
			t.Errorf("%s: at %d:%d (%s), want %d:%d", tc.name, f.Line, f.Column, f.Message, tc.line, tc.col)
		}
	}
}

func TestTooLargeIsRefused(t *testing.T) {
	big := make([]byte, MaxFileBytes+1)
	if race.Enabled {
		// The finding's span is the first token: in 16 MiB of NULs that
		// token is the whole file, a scan of every byte that costs a
		// second under -race and is not what this test checks. A '{'
		// makes it one byte; without -race (.ci/run) the NULs stay.
		big[0] = '{'
	}
	d := ParseDoc("big.json", big)
	f := d.SyntaxFinding()
	if f == nil || f.Message != "not read, beyond oastui's limits: file is 16.0 MiB; oastui reads at most 16 MiB" {
		t.Fatalf("got %+v", f)
	}
}

func TestDuplicateKeysLastWins(t *testing.T) {
	n, err := Parse([]byte(`{"a":1,"a":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Members) != 2 || n.Get("a").Text != "2" {
		t.Fatalf("got %+v", n.Members)
	}
}

func TestPointerOfAndWalkNodes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parse func([]byte) (*Node, error)
		src   string
	}{
		{"json", Parse, `{"a":[1,{"b/c~":"x"}],"d":{"e":null}}`},
		{"yaml", parseYAML, "a:\n  - 1\n  - b/c~: x\nd:\n  e: null\n"},
	} {
		root, err := tc.parse([]byte(tc.src))
		if err != nil {
			t.Fatal(tc.name, err)
		}
		// Every node's PointerOf must equal the pointer Walk builds.
		var want, got []string
		Walk(root, "", func(ptr string, n *Node) bool { want = append(want, ptr); return true })
		WalkNodes(root, func(n *Node) bool { got = append(got, PointerOf(n)); return true })
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: PointerOf %q, Walk %q", tc.name, got, want)
		}
	}
}

// parseYAML is ParseYAMLDoc's tree, or its error.
func parseYAML(src []byte) (*Node, error) {
	d := ParseYAMLDoc("x.yaml", src)
	if d.Err != nil {
		return nil, d.Err
	}
	return d.Root, nil
}
