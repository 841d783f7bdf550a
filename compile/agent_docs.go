package compile

// Docs lists the parsed files of the agent that exist: the flow file,
// package.json, cinatra.json and the registry file, in that order.
func (a *Agent) Docs() []*Doc {
	var out []*Doc
	for _, d := range []*Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}
