package fix

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

type op func(d *compile.Doc) (edit.Edit, error)

func TestEdits(t *testing.T) {
	const pretty = "{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"
	crlfTabs := strings.ReplaceAll(strings.ReplaceAll(pretty, "  ", "\t"), "\n", "\r\n")
	const mini = `{"a":1,"o":{"x":"y"},"e":{},"arr":["p"],"z":true}`
	const spaced = `{"a": 1, "arr": ["p", "q"]}`
	cases := []struct {
		name, src string
		op        op
		want      string
	}{
		{"replace scalar", pretty, func(d *compile.Doc) (edit.Edit, error) { return Replace(d, "/a", "v<2>") },
			"{\n  \"a\": \"v<2>\",\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"replace object", pretty, func(d *compile.Doc) (edit.Edit, error) { return Replace(d, "/a", map[string]int{"k": 1}) },
			"{\n  \"a\": {\n    \"k\": 1\n  },\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"insert last", pretty, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/o", "n", 2) },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\",\n    \"n\": 2\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"insert into empty", pretty, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/e", "n", []string{"q"}) },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {\n    \"n\": [\n      \"q\"\n    ]\n  },\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"insert root", pretty, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "", "n", Raw(`{"b": [1]}`)) },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true,\n  \"n\": {\n    \"b\": [\n      1\n    ]\n  }\n}\n"},
		{"append", pretty, func(d *compile.Doc) (edit.Edit, error) { return Append(d, "/arr", "q", "r") },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\",\n    \"q\",\n    \"r\"\n  ],\n  \"z\": true\n}\n"},
		{"remove first", pretty, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/a") },
			"{\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"remove middle", pretty, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/e") },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"remove last", pretty, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/z") },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ]\n}\n"},
		{"remove only", pretty, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/o/x") },
			"{\n  \"a\": 1,\n  \"o\": {},\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"rename", pretty, func(d *compile.Doc) (edit.Edit, error) { return RenameKey(d, "/o/x", "x\"2") },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\\\"2\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},

		{"crlf tabs insert", crlfTabs, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/o", "n", map[string]int{"k": 1}) },
			"{\r\n\t\"a\": 1,\r\n\t\"o\": {\r\n\t\t\"x\": \"y\",\r\n\t\t\"n\": {\r\n\t\t\t\"k\": 1\r\n\t\t}\r\n\t},\r\n\t\"e\": {},\r\n\t\"arr\": [\r\n\t\t\"p\"\r\n\t],\r\n\t\"z\": true\r\n}\r\n"},
		{"crlf tabs empty", crlfTabs, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/e", "n", 1) },
			"{\r\n\t\"a\": 1,\r\n\t\"o\": {\r\n\t\t\"x\": \"y\"\r\n\t},\r\n\t\"e\": {\r\n\t\t\"n\": 1\r\n\t},\r\n\t\"arr\": [\r\n\t\t\"p\"\r\n\t],\r\n\t\"z\": true\r\n}\r\n"},
		{"crlf tabs remove last", crlfTabs, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/z") },
			"{\r\n\t\"a\": 1,\r\n\t\"o\": {\r\n\t\t\"x\": \"y\"\r\n\t},\r\n\t\"e\": {},\r\n\t\"arr\": [\r\n\t\t\"p\"\r\n\t]\r\n}\r\n"},

		{"mini insert", mini, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/o", "n", map[string]int{"k": 1}) },
			`{"a":1,"o":{"x":"y","n":{"k":1}},"e":{},"arr":["p"],"z":true}`},
		{"mini empty", mini, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/e", "n", 1) },
			`{"a":1,"o":{"x":"y"},"e":{"n":1},"arr":["p"],"z":true}`},
		{"mini append", mini, func(d *compile.Doc) (edit.Edit, error) { return Append(d, "/arr", "q") },
			`{"a":1,"o":{"x":"y"},"e":{},"arr":["p","q"],"z":true}`},
		{"mini remove first", mini, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/a") },
			`{"o":{"x":"y"},"e":{},"arr":["p"],"z":true}`},
		{"mini remove last", mini, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/z") },
			`{"a":1,"o":{"x":"y"},"e":{},"arr":["p"]}`},
		{"mini remove only", mini, func(d *compile.Doc) (edit.Edit, error) { return Remove(d, "/arr/0") },
			`{"a":1,"o":{"x":"y"},"e":{},"arr":[],"z":true}`},
		{"spaced append", spaced, func(d *compile.Doc) (edit.Edit, error) { return Append(d, "/arr", "r") },
			`{"a": 1, "arr": ["p", "q", "r"]}`},
		{"spaced insert", spaced, func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "", "b", false) },
			`{"a": 1, "arr": ["p", "q"], "b": false}`},
		{"single line object in a pretty file", "{\n  \"o\": {\"a\": 1}\n}\n", func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "/o", "b", 2) },
			"{\n  \"o\": {\"a\": 1, \"b\": 2}\n}\n"},
		{"empty root", "{}\n", func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "", "b", 2) },
			"{\"b\":2}\n"},
		{"empty root pretty", "{\n}\n", func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "", "b", 2) },
			"{\n  \"b\": 2\n}\n"},
		{"insert before first", pretty, func(d *compile.Doc) (edit.Edit, error) { return InsertBefore(d, "/arr/0", map[string]int{"k": 1}) },
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\"\n  },\n  \"e\": {},\n  \"arr\": [\n    {\n      \"k\": 1\n    },\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"crlf tabs insert before", crlfTabs, func(d *compile.Doc) (edit.Edit, error) { return InsertBefore(d, "/arr/0", "q") },
			"{\r\n\t\"a\": 1,\r\n\t\"o\": {\r\n\t\t\"x\": \"y\"\r\n\t},\r\n\t\"e\": {},\r\n\t\"arr\": [\r\n\t\t\"q\",\r\n\t\t\"p\"\r\n\t],\r\n\t\"z\": true\r\n}\r\n"},
		{"spaced insert before", spaced, func(d *compile.Doc) (edit.Edit, error) { return InsertBefore(d, "/arr/1", "r") },
			`{"a": 1, "arr": ["p", "r", "q"]}`},
		{"mini insert before", mini, func(d *compile.Doc) (edit.Edit, error) { return InsertBefore(d, "/arr/0", Raw(`{"k": [1]}`)) },
			`{"a":1,"o":{"x":"y"},"e":{},"arr":[{"k":[1]},"p"],"z":true}`},
		{"insert members", pretty, func(d *compile.Doc) (edit.Edit, error) {
			return InsertMembers(d, "/o", []string{"m", "n"}, []any{1, Raw(`[2]`)})
		},
			"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": \"y\",\n    \"m\": 1,\n    \"n\": [\n      2\n    ]\n  },\n  \"e\": {},\n  \"arr\": [\n    \"p\"\n  ],\n  \"z\": true\n}\n"},
		{"mini insert members into empty", mini, func(d *compile.Doc) (edit.Edit, error) {
			return InsertMembers(d, "/e", []string{"m", "n"}, []any{1, 2})
		},
			`{"a":1,"o":{"x":"y"},"e":{"m":1,"n":2},"arr":["p"],"z":true}`},
		{"no trailing newline", "{\n    \"a\": 1\n}", func(d *compile.Doc) (edit.Edit, error) { return Insert(d, "", "b", 2) },
			"{\n    \"a\": 1,\n    \"b\": 2\n}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := compile.ParseDoc("f.json", []byte(c.src))
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			e, err := c.op(d)
			if err != nil {
				t.Fatal(err)
			}
			got, err := edit.Apply(d.Src, []edit.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if _, err := compile.Parse(got); err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			// Outside the edited span every byte is the source's.
			if string(got[:e.Start]) != c.src[:e.Start] || string(got[len(got)-(len(c.src)-e.End):]) != c.src[e.End:] {
				t.Fatal("bytes outside the edit changed")
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	d := compile.ParseDoc("f.json", []byte(`{"a": [1], "o": {}}`))
	if _, err := Insert(d, "/a", "k", 1); err == nil {
		t.Error("insert into an array")
	}
	if _, err := Append(d, "/o", 1); err == nil {
		t.Error("append to an object")
	}
	if _, err := Remove(d, ""); err == nil {
		t.Error("remove the root")
	}
	if _, err := Replace(d, "/missing", 1); err == nil {
		t.Error("replace nothing")
	}
	if _, err := RenameKey(d, "/a/0", "x"); err == nil {
		t.Error("rename an array item")
	}
	if _, err := Insert(d, "/o", "k", Raw("{bad")); err == nil {
		t.Error("invalid raw JSON")
	}
	if _, err := InsertBefore(d, "/o", 1); err == nil {
		t.Error("insert before an object member")
	}
	if _, err := InsertMembers(d, "/a", []string{"k"}, []any{1}); err == nil {
		t.Error("insert members into an array")
	}
	if _, err := InsertMembers(d, "/o", []string{"k", "l"}, []any{1}); err == nil {
		t.Error("keys and values of different lengths")
	}
	y := compile.ParseDocFile("f.yaml", []byte("a: 1\n"))
	if _, err := Replace(y, "/a", 2); err == nil {
		t.Error("a YAML document")
	}
}
