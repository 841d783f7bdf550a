package prompts

import "strings"

// render is a template with every placeholder replaced by its sample.
func render(segs []Segment, values map[string]string) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Kind == SegPlaceholder {
			b.WriteString(values[s.Name])
			continue
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

// joinSystem joins the parts of a system text by a blank line, dropping
// empty ones (the bridge's media-input assembly).
func joinSystem(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// measure renders the preview of n and counts its tokens and buckets.
func (b *builder) measure(n *NodePrompt) {
	enc := n.Model.Encoding
	values := map[string]string{}
	for i := range n.Placeholders {
		p := &n.Placeholders[i]
		values[p.Name] = p.Sample
		if !b.in.BudgetOnly {
			p.Tokens = b.count(enc, p.Sample)
		}
	}
	var sysStatic, sysPreview, userStatic, userPreview string
	for _, t := range n.Templates {
		st, pv := Static(t.Segments), render(t.Segments, values)
		if t.Role == "system" {
			sysStatic, sysPreview = st, pv
		} else {
			userStatic, userPreview = st, pv
		}
	}
	skill := b.skillText(n.Skill)
	if n.Skill != nil && n.Skill.Status == "found" && !b.in.BudgetOnly {
		n.Skill.Tokens = b.count(enc, skill)
		if n.Skill.Placement == "system" {
			sysStatic, sysPreview = joinSystem(skill, sysStatic), joinSystem(skill, sysPreview)
		}
	}
	n.Preview = Preview{System: sysPreview, User: userPreview}
	if b.in.BudgetOnly {
		b.measureBudgetOnly(n, sysStatic, userStatic, skill)
		return
	}
	n.Tokens.Static = b.countAll(enc, sysStatic)
	n.Tokens.Static.add(b.countAll(enc, userStatic))
	n.Tokens.Preview = b.countAll(enc, sysPreview)
	n.Tokens.Preview.add(b.countAll(enc, userPreview))
	if n.Model.Window > 0 {
		n.Tokens.WindowShare = float64(n.Tokens.Static[enc]) / float64(n.Model.Window)
	}

	st, es := BucketTokens{}, BucketTokens{}
	for _, k := range Buckets {
		st[k], es[k] = 0, 0
	}
	policy := b.count(enc, sysStatic) + b.count(enc, userStatic)
	st[Policy], es[Policy] = policy, policy
	tool := 0
	if n.Skill != nil && n.Skill.Placement == "tool" {
		tool += n.Skill.Tokens
	}
	if n.Tools != nil {
		if js, ok := b.toolJSON[n.Tools]; ok {
			n.Tools.Tokens = b.count(enc, js)
		}
		tool += n.Tools.Tokens
	}
	st[Tool], es[Tool] = tool, tool
	slotsSeen := map[string]bool{}
	for _, p := range n.Placeholders {
		switch {
		case p.Provenance.Kind == FromSlot:
			if slotsSeen[p.Provenance.Slot] {
				continue
			}
			slotsSeen[p.Provenance.Slot] = true
			s := b.slotOf(p.Provenance.From)
			st[Business] += s.min * b.r.Budget.ArtifactTokens
			es[Business] += s.max * b.r.Budget.ArtifactTokens
		default:
			es[p.Bucket] += p.Tokens
			if p.SampleFrom == "default" {
				st[p.Bucket] += p.Tokens
			}
		}
	}
	n.Buckets = StepBuckets{Static: st, Estimate: es}
}

// measureBudgetOnly is measure for the budget check: only the static
// buckets the configured budget limits, and a text is tokenized only when
// its bytes exceed the limit it is checked against (a BPE token is at
// least one byte, so a text of at most L bytes cannot exceed L tokens).
// With no limit that a byte count cannot decide, no encoder is built.
func (b *builder) measureBudgetOnly(n *NodePrompt, sysStatic, userStatic, skill string) {
	enc := n.Model.Encoding
	lim := b.r.Budget
	over := func(k Bucket, bytes int) bool {
		l, ok := lim.limit(k)
		return ok && bytes > l
	}
	toolText := ""
	if n.Skill != nil && n.Skill.Placement == "tool" {
		toolText = skill
	}
	if n.Tools != nil {
		toolText += b.toolJSON[n.Tools]
	}
	st := BucketTokens{}
	slotsSeen := map[string]bool{}
	defaults := map[Bucket][]string{}
	defaultBytes := 0
	for _, p := range n.Placeholders {
		if p.Provenance.Kind == FromSlot {
			if !slotsSeen[p.Provenance.Slot] {
				slotsSeen[p.Provenance.Slot] = true
				st[Business] += b.slotOf(p.Provenance.From).min * b.r.Budget.ArtifactTokens
			}
		} else if p.SampleFrom == "default" {
			defaults[p.Bucket] = append(defaults[p.Bucket], p.Sample)
			defaultBytes += len(p.Sample)
		}
	}
	policyBytes := len(sysStatic) + len(userStatic)
	// Exact counts where a bound cannot decide: a bucket's own limit, the
	// total (or window share), and (Agent Spec steps) the memory they
	// carry, which is at most the bytes of every such step's prompts
	// (b.memBytes).
	mem := 0
	if n.Kind != KindBridge {
		mem = b.memBytes
	}
	total := lim.totalLimit(n.Model.Window)
	all := over(Memory, mem) || (total > 0 && policyBytes+len(toolText)+defaultBytes+st[Business]+mem > total)
	if all && n.Kind != KindBridge {
		// This step's memory is the earlier steps' prompts: count those
		// that a bound had let go uncounted.
		for _, p := range b.uncounted {
			p.node.Tokens.Static = Counts{enc: b.count(enc, p.sys) + b.count(enc, p.user)}
			p.node.Buckets.Static[Policy] = p.node.Tokens.Static[enc]
		}
		b.uncounted = nil
	}
	if all || over(Policy, policyBytes) {
		st[Policy] = b.count(enc, sysStatic) + b.count(enc, userStatic)
	} else if n.Kind != KindBridge {
		b.uncounted = append(b.uncounted, uncountedPolicy{n, sysStatic, userStatic})
	}
	if all || over(Tool, len(toolText)) {
		st[Tool] = b.count(enc, toolText)
	}
	for k, vals := range defaults {
		size := 0
		for _, v := range vals {
			size += len(v)
		}
		if all || over(k, size) {
			for _, v := range vals {
				st[k] += b.count(enc, v)
			}
		}
	}
	n.Tokens.Static = Counts{enc: st[Policy]}
	n.Tokens.Preview = Counts{}
	n.Buckets = StepBuckets{Static: st, Estimate: BucketTokens{}}
}

// uncountedPolicy is an Agent Spec step whose prompts a byte bound let
// go uncounted (budget-only builds): counted after all if a later step's
// memory needs them.
type uncountedPolicy struct {
	node      *NodePrompt
	sys, user string
}

// memoryBytes bounds the memory any Agent Spec step carries (budget-only
// builds): the bytes of the static prompts of every such step (a token is
// at least one byte).
func memoryBytes(nodes []*NodePrompt) int {
	total := 0
	for _, n := range nodes {
		if n.Kind == KindBridge {
			continue
		}
		for _, t := range n.Templates {
			total += len(Static(t.Segments))
		}
	}
	return total
}

// budget fills the memory bucket (Agent Spec steps share the conversation
// of the run: each carries the prompts of the steps before it; bridge calls
// carry none), the per-step table, the totals and the buckets over the
// configured budget (the example budget is never checked).
func (b *builder) budget() {
	memStatic, memEst := 0, 0
	for _, k := range Buckets {
		b.r.Totals[k] = 0
	}
	for _, n := range b.r.Nodes {
		enc := n.Model.Encoding
		if n.Kind != KindBridge {
			n.Buckets.Static[Memory] = memStatic
			n.Buckets.Estimate[Memory] = memEst
			memStatic += n.Tokens.Static[enc]
			memEst += n.Tokens.Preview[enc]
		}
		row := StepBudget{Order: n.Order, Step: n.Step, Node: n.ID, Flow: n.Flow, Pointer: n.Pointer, Encoding: enc,
			Static: n.Buckets.Static, Estimate: n.Buckets.Estimate}
		staticTotal := 0
		for _, k := range Buckets {
			row.Total += n.Buckets.Estimate[k]
			staticTotal += n.Buckets.Static[k]
			b.r.Totals[k] += n.Buckets.Estimate[k]
			if lim, ok := b.r.Budget.limit(k); ok && n.Buckets.Static[k] > lim {
				b.exceeded(n, k, n.Buckets.Static[k], lim)
			}
		}
		if lim := b.r.Budget.Total; lim > 0 && staticTotal > lim {
			b.exceeded(n, TotalLimit, staticTotal, lim)
		}
		if b.r.Budget.WindowShare > 0 && n.Model.Window > 0 {
			if lim := n.Model.Window * b.r.Budget.WindowShare / 100; staticTotal > lim {
				b.exceeded(n, WindowLimit, staticTotal, lim)
			}
		}
		b.r.Steps = append(b.r.Steps, row)
	}
}

func (b *builder) exceeded(n *NodePrompt, k Bucket, tokens, lim int) {
	b.r.Exceeded = append(b.r.Exceeded, Exceeded{Bucket: k, Order: n.Order, Step: n.Step, Node: n.ID,
		Pointer: n.Pointer, Tokens: tokens, Budget: lim})
}
