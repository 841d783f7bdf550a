package compile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// MaxAliasNodes bounds how many values alias expansion may add to a YAML
// document. Agent Spec files written by the SDKs never use anchors; a
// hand-written one may share a block or two. An alias bomb ("billion
// laughs") is refused with a syntax error instead of being expanded.
const MaxAliasNodes = 100_000

// IsYAMLPath reports whether path names a YAML file (.yaml or .yml).
func IsYAMLPath(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// ParseYAMLDoc parses src as a YAML document into the same tree ParseDoc
// builds for JSON: objects keep their key order, every node carries the
// byte offset where it starts, so pointers map to lines and columns. A
// parse error, or a document refused for its size, depth or aliases, is
// kept in Doc.Err.
func ParseYAMLDoc(path string, src []byte) *Doc {
	d := &Doc{Path: path, Src: src}
	root, err := d.parseYAML()
	if err != nil {
		d.Err = err
	} else {
		d.Root = root
	}
	return d
}

// ParseDocFile parses src by the file's extension: YAML for .yaml and
// .yml, JSON otherwise.
func ParseDocFile(path string, src []byte) *Doc {
	if IsYAMLPath(path) {
		return ParseYAMLDoc(path, src)
	}
	return ParseDoc(path, src)
}

// FileSyntaxFinding is SyntaxFinding worded for the file's format: a YAML
// file that does not parse gets the same invalid_json code (SPEC §2) with
// an "invalid YAML" message.
func (d *Doc) FileSyntaxFinding() *Finding {
	f := d.SyntaxFinding()
	if f != nil && IsYAMLPath(d.Path) && !d.Err.Refused {
		f.Message = "invalid YAML: " + d.Err.Msg
	}
	return f
}

func (d *Doc) parseYAML() (root *Node, serr *SyntaxError) {
	src := d.Src
	if len(src) > MaxFileBytes {
		return nil, tooLarge(len(src))
	}
	defer func() {
		if r := recover(); r != nil {
			root, serr = nil, &SyntaxError{Offset: 0, Msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &SyntaxError{Offset: 0, Msg: "empty YAML document"}
		}
		return nil, d.yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &SyntaxError{Offset: d.yamlOffset(extra.Line, extra.Column), Msg: "more than one YAML document in the file"}
	} else if !errors.Is(err, io.EOF) {
		return nil, d.yamlError(err)
	}
	c := yamlConverter{d: d, active: map[*yaml.Node]bool{}}
	n := &doc
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, &SyntaxError{Offset: 0, Msg: "empty YAML document"}
		}
		n = n.Content[0]
	}
	root, serr = c.convert(n, 0, false)
	if root != nil {
		dups := linkTree(root, nil)
		sort.Slice(dups, func(i, j int) bool { return dups[i].Offset < dups[j].Offset })
		d.Duplicates = dups
	}
	return root, serr
}

var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// yamlError turns a go-yaml error ("yaml: line 3: did not find expected
// key") into a SyntaxError at the start of that line.
func (d *Doc) yamlError(err error) *SyntaxError {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = "yaml: " + te.Errors[0]
	}
	off := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			if line, err := strconv.Atoi(m[1]); err == nil {
				off = d.yamlOffset(line, 1)
			}
		}
		msg = msg[len(m[0]):]
	}
	return &SyntaxError{Offset: off, Msg: msg}
}

// yamlOffset converts go-yaml's 1-based line and column (counted in
// characters) into a byte offset of d.Src.
func (d *Doc) yamlOffset(line, col int) int { return d.offsetAt(line, col) }

type yamlConverter struct {
	d       *Doc
	aliased int                 // values added by alias expansion so far
	active  map[*yaml.Node]bool // anchors being expanded (an alias inside its own anchor)
}

func (c *yamlConverter) convert(y *yaml.Node, depth int, viaAlias bool) (*Node, *SyntaxError) {
	off := c.d.yamlOffset(y.Line, y.Column)
	if depth > MaxDepth {
		return nil, &SyntaxError{Offset: off, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Refused: true}
	}
	if viaAlias {
		c.aliased++
		if c.aliased > MaxAliasNodes {
			return nil, &SyntaxError{Offset: off, Msg: fmt.Sprintf("YAML aliases expand to more than %d values (an alias bomb)", MaxAliasNodes), Refused: true}
		}
	}
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil {
			return nil, &SyntaxError{Offset: off, Msg: "alias to an unknown anchor"}
		}
		if c.active[y.Alias] {
			return nil, &SyntaxError{Offset: off, Msg: fmt.Sprintf("alias *%s refers to a value that contains it", y.Value)}
		}
		c.active[y.Alias] = true
		n, err := c.convert(y.Alias, depth, true)
		delete(c.active, y.Alias)
		if err != nil {
			return nil, err
		}
		// The value is where the anchor defines it; keep that position
		// but report it at the alias when it is a scalar (a finding on an
		// aliased value then points where it is used).
		if n.Kind != Object && n.Kind != Array {
			n.Offset = off
		}
		return n, nil
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return &Node{Kind: Null, Offset: off}, nil
		}
		return c.convert(y.Content[0], depth, viaAlias)
	case yaml.ScalarNode:
		return c.scalar(y, off), nil
	case yaml.SequenceNode:
		n := &Node{Kind: Array, Offset: off, Items: make([]*Node, 0, len(y.Content))}
		for _, it := range y.Content {
			v, err := c.convert(it, depth+1, viaAlias)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, v)
		}
		return n, nil
	case yaml.MappingNode:
		n := &Node{Kind: Object, Offset: off}
		if len(y.Content)%2 != 0 {
			return nil, &SyntaxError{Offset: off, Msg: "mapping with a key and no value"}
		}
		var merged []Member
		for i := 0; i < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				ms, err := c.merge(v, depth, viaAlias)
				if err != nil {
					return nil, err
				}
				merged = append(merged, ms...)
				continue
			}
			kk := k
			if kk.Kind == yaml.AliasNode && kk.Alias != nil {
				kk = kk.Alias
			}
			if kk.Kind != yaml.ScalarNode {
				return nil, &SyntaxError{Offset: c.d.yamlOffset(k.Line, k.Column), Msg: "mapping key is not a scalar; Agent Spec keys are strings"}
			}
			val, err := c.convert(v, depth+1, viaAlias)
			if err != nil {
				return nil, err
			}
			n.Members = append(n.Members, Member{Key: kk.Value, KeyOffset: c.d.yamlOffset(k.Line, k.Column), Value: val})
		}
		// Merged keys (<<) apply only where the mapping does not set the key itself.
		for _, m := range merged {
			if n.Get(m.Key) == nil {
				n.Members = append(n.Members, m)
			}
		}
		return n, nil
	}
	return nil, &SyntaxError{Offset: off, Msg: "unsupported YAML node"}
}

// merge returns the members a `<<` key brings in: one mapping or a list of them.
func (c *yamlConverter) merge(v *yaml.Node, depth int, viaAlias bool) ([]Member, *SyntaxError) {
	n, err := c.convert(v, depth+1, viaAlias)
	if err != nil {
		return nil, err
	}
	switch n.Kind {
	case Object:
		return n.Members, nil
	case Array:
		var out []Member
		for _, it := range n.Items {
			if it.Kind != Object {
				return nil, &SyntaxError{Offset: it.Offset, Msg: "merge key << needs a mapping or a list of mappings"}
			}
			out = append(out, it.Members...)
		}
		return out, nil
	}
	return nil, &SyntaxError{Offset: n.Offset, Msg: "merge key << needs a mapping or a list of mappings"}
}

// scalar maps a YAML scalar onto a JSON value by its resolved tag, as a
// safe YAML loader would: null, booleans, numbers; everything else
// (strings, timestamps, binary, custom tags) is a string.
func (c *yamlConverter) scalar(y *yaml.Node, off int) *Node {
	switch y.ShortTag() {
	case "!!null":
		return &Node{Kind: Null, Offset: off}
	case "!!bool":
		switch strings.ToLower(y.Value) {
		case "true", "yes", "on", "y":
			return &Node{Kind: Bool, Bool: true, Offset: off}
		}
		return &Node{Kind: Bool, Bool: false, Offset: off}
	case "!!int":
		if t, ok := yamlInt(y.Value); ok {
			return &Node{Kind: Number, Text: t, Offset: off}
		}
	case "!!float":
		if t, ok := yamlFloat(y.Value); ok {
			return &Node{Kind: Number, Text: t, Offset: off}
		}
	}
	return &Node{Kind: String, Text: y.Value, Offset: off}
}

// yamlInt returns the decimal text of a YAML integer (0x1F, 0o17, 0b101, 1_000, +5).
func yamlInt(s string) (string, bool) {
	plain := strings.ReplaceAll(s, "_", "")
	neg := false
	switch {
	case strings.HasPrefix(plain, "-"):
		neg, plain = true, plain[1:]
	case strings.HasPrefix(plain, "+"):
		plain = plain[1:]
	}
	if plain == "" {
		return "", false
	}
	base := 10
	switch {
	case strings.HasPrefix(plain, "0x"), strings.HasPrefix(plain, "0X"):
		base, plain = 16, plain[2:]
	case strings.HasPrefix(plain, "0o"), strings.HasPrefix(plain, "0O"):
		base, plain = 8, plain[2:]
	case strings.HasPrefix(plain, "0b"), strings.HasPrefix(plain, "0B"):
		base, plain = 2, plain[2:]
	case len(plain) > 1 && plain[0] == '0':
		base, plain = 8, plain[1:] // YAML 1.1 octal, as go-yaml resolves it
	}
	u, err := strconv.ParseUint(plain, base, 64)
	if err != nil {
		// Too big for 64 bits: keep a decimal literal as it is.
		if base == 10 && isDigits(plain) {
			if neg {
				return "-" + plain, true
			}
			return plain, true
		}
		return "", false
	}
	t := strconv.FormatUint(u, 10)
	if neg {
		t = "-" + t
	}
	return t, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// yamlFloat returns JSON number text for a YAML float; .inf and .nan have
// no JSON form and stay strings.
func yamlFloat(s string) (string, bool) {
	plain := strings.ReplaceAll(s, "_", "")
	f, err := strconv.ParseFloat(plain, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	if jsonNumberRE.MatchString(plain) {
		return plain, true // keep the literal, as the JSON parser does
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}
