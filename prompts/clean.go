package prompts

import "strings"

// Clean returns a copy of r with every string that comes from the agent
// passed through clean (the faces pass present.Text, the one presentation
// function: sanitise, then mask). Counts are those of the
// raw text, which is what the model reads.
func (r *Report) Presented(clean func(string) string) *Report {
	if r == nil {
		return nil
	}
	multi := func(s string) string { return perLine(s, clean) }
	out := *r
	out.File = clean(r.File)
	out.Nodes = make([]*NodePrompt, len(r.Nodes))
	for i, n := range r.Nodes {
		out.Nodes[i] = n.clean(clean, multi)
	}
	out.Steps = make([]StepBudget, len(r.Steps))
	for i, s := range r.Steps {
		s.Node, s.Flow, s.Pointer = clean(s.Node), clean(s.Flow), clean(s.Pointer)
		out.Steps[i] = s
	}
	out.Exceeded = make([]Exceeded, len(r.Exceeded))
	for i, e := range r.Exceeded {
		e.Node, e.Pointer = clean(e.Node), clean(e.Pointer)
		out.Exceeded[i] = e
	}
	return &out
}

func (n *NodePrompt) clean(clean, multi func(string) string) *NodePrompt {
	c := *n
	c.Flow, c.FlowPointer, c.ID, c.Name = clean(n.Flow), clean(n.FlowPointer), clean(n.ID), clean(n.Name)
	c.ComponentType, c.Pointer = clean(n.ComponentType), clean(n.Pointer)
	c.Model.Provider, c.Model.ID, c.Model.Capability = clean(n.Model.Provider), clean(n.Model.ID), clean(n.Model.Capability)
	c.System.Chain = make([]ChainStep, len(n.System.Chain))
	for i, s := range n.System.Chain {
		s.Field = clean(s.Field)
		c.System.Chain[i] = s
	}
	c.System.Source = clean(n.System.Source)
	c.Templates = make([]Template, len(n.Templates))
	// the segments and placeholders (100,000 of them in a hostile
	// template) are copied only from the first one that cleaning changes:
	// a clean report shares them with r instead of doubling them
	for i, t := range n.Templates {
		t.Pointer = clean(t.Pointer)
		t.Segments = copyOnChange(t.Segments, func(s Segment) Segment {
			s.Text, s.Name = multi(s.Text), clean(s.Name)
			return s
		}, func(a, b Segment) bool { return a == b })
		c.Templates[i] = t
	}
	c.Placeholders = copyOnChange(n.Placeholders, func(p Placeholder) Placeholder {
		p.Name, p.Sample = clean(p.Name), multi(p.Sample)
		pv := &p.Provenance
		pv.From, pv.FromPointer, pv.Output, pv.EdgePointer = clean(pv.From), clean(pv.FromPointer), clean(pv.Output), clean(pv.EdgePointer)
		pv.Default, pv.Slot, pv.Detail = clean(pv.Default), clean(pv.Slot), clean(pv.Detail)
		return p
	}, func(a, b Placeholder) bool {
		return a.Name == b.Name && a.Sample == b.Sample && a.Provenance == b.Provenance // the fields f changes
	})
	if n.Skill != nil {
		s := *n.Skill
		s.Path, s.Note = clean(s.Path), clean(s.Note)
		c.Skill = &s
	}
	if n.Tools != nil {
		t := *n.Tools
		t.Names = cleanAll(t.Names, clean)
		t.Toolboxes = cleanAll(t.Toolboxes, clean)
		c.Tools = &t
	}
	c.Preview = Preview{System: multi(n.Preview.System), User: multi(n.Preview.User)}
	return &c
}

func cleanAll(ss []string, clean func(string) string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

// perLine applies clean to each line of s: multi-line text (templates,
// previews) keeps its line breaks, and each line is sanitised.
func perLine(s string, clean func(string) string) string {
	if !strings.Contains(s, "\n") {
		return clean(s)
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = clean(strings.TrimSuffix(p, "\r"))
	}
	return strings.Join(parts, "\n")
}

// copyOnChange is xs with each element replaced by f of it: xs itself
// when f changes none (same says f's result equals its argument), else a
// copy made from the first element f changes. A nil xs is an empty list.
func copyOnChange[T any](xs []T, f func(T) T, same func(a, b T) bool) []T {
	if xs == nil {
		return []T{} // as the copy was: an empty list, not null
	}
	for i, x := range xs {
		y := f(x)
		if same(x, y) {
			continue
		}
		out := make([]T, len(xs))
		copy(out, xs[:i])
		out[i] = y
		for j := i + 1; j < len(xs); j++ {
			out[j] = f(xs[j])
		}
		return out
	}
	return xs
}
