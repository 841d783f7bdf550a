package compile

import "fmt"

// Checks run while loading, on what the parsers saw (issue 11 items 7
// and 8): they need no rule machinery and hold for every face.

// DuplicateKeyFindings reports each key given twice in one object of d at
// its later occurrence: duplicate_key, a blocker in the cinatra profile
// (the platform's JSON.parse silently keeps the last one, which the author
// rarely means), a warning in the agentspec profile.
func DuplicateKeyFindings(d *Doc, profile Profile) []Finding {
	if d == nil || len(d.Duplicates) == 0 {
		return nil
	}
	sev := Warning
	if profile == ProfileCinatra {
		sev = Blocker
	}
	keeps := "JSON.parse keeps the last one"
	if IsYAMLPath(d.Path) {
		keeps = "the last one is kept"
	}
	out := make([]Finding, 0, len(d.Duplicates))
	for _, k := range d.Duplicates {
		line, col := d.Position(k.Offset)
		fl, fc := d.Position(k.First)
		f := Finding{Code: "duplicate_key", Severity: sev,
			Message:  fmt.Sprintf("duplicate key %q in this object (%s; the first at %d:%d is ignored)", k.Key, keeps, fl, fc),
			Location: k.Pointer(), Source: SourceDeterministic, File: d.Path, Line: line, Column: col}
		d.SetSpan(&f, k.Offset, d.KeyEnd(Member{Key: k.Key, KeyOffset: k.Offset})) // the repeated key
		out = append(out, f)
	}
	return out
}

// kindName is a JSON type with its article, for messages.
func kindName(n *Node) string {
	switch n.Kind {
	case Null:
		return "null"
	case Array, Object:
		return "an " + n.Kind.String()
	}
	return "a " + n.Kind.String()
}

// PackageJSONFindings checks the shape of a parsed package.json:
// package_json_invalid (blocker) when it is not an object, when name,
// version or license is present but not a string, or when dependencies,
// peerDependencies or devDependencies is present but not an object. Each
// finding sits at the offending value. Readers of the package go through
// Get and Str, which see a non-object or a mistyped field as absent.
func PackageJSONFindings(d *Doc) []Finding {
	if d == nil || d.Root == nil {
		return nil
	}
	const code = "package_json_invalid"
	if d.Root.Kind != Object {
		return []Finding{d.At("", code, Blocker,
			fmt.Sprintf("package.json must be a JSON object with the package's name, version and license; this one is %s", kindName(d.Root)))}
	}
	var out []Finding
	for _, k := range []string{"name", "version", "license"} {
		if v := d.Root.Get(k); v != nil && v.Kind != String {
			out = append(out, d.At(Pointer(k), code, Blocker,
				fmt.Sprintf("package.json %q must be a string, not %s", k, kindName(v))))
		}
	}
	for _, k := range []string{"dependencies", "peerDependencies", "devDependencies"} {
		if v := d.Root.Get(k); v != nil && v.Kind != Object {
			out = append(out, d.At(Pointer(k), code, Blocker,
				fmt.Sprintf("package.json %q must be an object of package names to version ranges, not %s", k, kindName(v))))
		}
	}
	return out
}
