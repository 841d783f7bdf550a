package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/present"
)

// TestRegisterToolRecovers: a panic while decoding a call's arguments or
// encoding its output (outside the tools' own recovery) is that call's
// error result, masked, over the real transport; the server keeps serving.
func TestRegisterToolRecovers(t *testing.T) {
	rs := newRawSession(t)
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"agent_compile","arguments":{"source":"{\"note\":\"` + hostile.Token + `\"}"}}}`
	}
	for i, stage := range []*string{&panicIn.decode, &panicIn.encode} {
		*stage = "agent_compile"
		id := string(rune('1' + i))
		rs.send(call(id))
		m := rs.reply(id)
		*stage = ""
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(m["result"], &res); err != nil || !res.IsError || len(res.Content) == 0 {
			t.Fatalf("stage %d: want an error result, got %v", i, m)
		}
		if txt := res.Content[0].Text; !strings.Contains(txt, "internal error in agent_compile: test panic") || strings.Contains(txt, hostile.Token) {
			t.Errorf("stage %d: error text %q: want the panic, masked", i, txt)
		}
	}
	rs.send(call("3"))
	if m := rs.reply("3"); !strings.Contains(string(m["result"]), `\"ok\"`) {
		t.Errorf("agent_compile after the panics: %.300v", m)
	}
}

// TestMaskJSONOrder: agent_compile's text content (an encoded JSON
// document) goes through the one presentation function in its order —
// each string decoded, sanitised, then masked, then encoded — so that
// neither an escape nor an invisible character inside a string splits a
// token the client then decodes whole. The layout between the strings is
// kept byte for byte, and a value is judged under its member's name.
func TestMaskJSONOrder(t *testing.T) {
	tok := hostile.Token
	v := map[string]any{
		"zero_width": "see " + tok[:12] + "\u200b" + tok[12:] + " here",
		"escape":     "see " + tok[:12] + "\x1b[0m" + tok[12:] + " here",
		"c1":         "see " + tok[:12] + "\u009b0m" + tok[12:] + " here",
		"lines":      "first line\n" + tok + "\nlast",
		"api_key":    "Zq8vN3kR7wP2mX5t",
		tok:          map[string]any{"id": "plain", "name": "Plain <b> & \"quoted\""},
		"list":       []any{"a", 1.5, true, nil, "b\u202eevil"},
	}
	doc, err := compile.IndentJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	out := maskJSON(string(doc))
	var back map[string]any
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			if strings.Contains(present.Clean(x), tok[4:]) || strings.Contains(x, "Zq8vN3kR7wP2mX5t") {
				t.Errorf("a client decodes a secret from %q", x)
			}
			for _, r := range x {
				if r != '\n' && present.Unsafe(r) {
					t.Errorf("a client decodes %U from %q", r, x)
				}
			}
		case map[string]any:
			for k, e := range x {
				walk(k)
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(back)
	if back["lines"] != "first line\n"+present.Mask(tok)+"\nlast" {
		t.Errorf("a multi-line value: %q", back["lines"])
	}
	if m := back[present.Mask(tok)].(map[string]any); m["name"] != `Plain <b> & "quoted"` {
		t.Errorf("a plain value changed: %q", m["name"])
	}
	plain, _ := compile.IndentJSON(map[string]any{"a": []any{"x", 1, map[string]any{"b": "y \\ \" <>"}}, "c": ""})
	if got := maskJSON(string(plain)); got != string(plain) {
		t.Errorf("a document without secrets changed:\n%s\nwant\n%s", got, plain)
	}
}
