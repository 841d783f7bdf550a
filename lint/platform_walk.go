package lint

import (
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// The platform's rules that look at every value ride the validator's one
// walk of the flow document (its scan of an object's members calls
// platformMember, rtWalk.str and rtWalk.object call the others):
// OAS-RUNTIME-011 (every object), OAS-RUNTIME-012 (every string under a
// prose key, array items taking their array's key), oas_skill_ids (every
// key and string, unless the agent is exempt) and retired_crm_primitive
// (strings held directly by a system / user / description member).

// platformSkillIDs: oas_skill_ids on string n.
func platformSkillIDs(p *Pass, n *compile.Node) {
	p.Report(p.Agent.Flow, compile.PointerOf(n), RuleOASSkillIDs,
		"the flow file names "+strconv.Quote(n.Text)+"; an agent's skills come from the skills catalog, never from oas.json, and the platform's skill-free invariant rejects the file")
}

// platformProse: OAS-RUNTIME-012 on string n under the prose key key.
func platformProse(p *Pass, n *compile.Node, key string) {
	if tok := legacyTokenIn(n.Text); tok != "" {
		p.Report(p.Agent.Flow, compile.PointerOf(n), RuleOASRuntime012,
			"the prompt field "+strconv.Quote(key)+" asks the model to call "+strconv.Quote(tok)+" to store its result; the declarative artifact binding (outputs[].cinatra.artifact) or an artifact_materialize node stores it now, and a model-driven write on top of it stores the artifact twice. Take the instruction out of the prompt and bind the output instead.")
	}
}

// legacyTokenIn is the first of parityLegacyTokens (in their order) that
// text contains, "" for none: one scan for the "_" each of them has at
// legacyTokenUnderscore, instead of a search of the whole text per token.
func legacyTokenIn(text string) string {
	found := -1
	for i := 0; ; {
		k := strings.IndexByte(text[i:], '_')
		if k < 0 {
			break
		}
		at := i + k
		i = at + 1
		for j, tok := range parityLegacyTokens {
			if found >= 0 && j >= found {
				break
			}
			if start := at - legacyTokenUnderscore[j]; start >= 0 && strings.HasPrefix(text[start:], tok) {
				found = j
			}
		}
		if found == 0 {
			break
		}
	}
	if found < 0 {
		return ""
	}
	return parityLegacyTokens[found]
}

// legacyTokenUnderscore is where the first "_" of each of
// parityLegacyTokens is.
var legacyTokenUnderscore = func() []int {
	at := make([]int, len(parityLegacyTokens))
	for j, tok := range parityLegacyTokens {
		at[j] = strings.IndexByte(tok, '_')
	}
	return at
}()

// platformMember: oas_skill_ids and retired_crm_primitive on one member of
// an object, called by the walk's one scan of the object's members for
// the keys skillIds, skill_ids, system, user and description.
func platformMember(p *Pass, m compile.Member, skillIDs bool) {
	switch m.Key {
	case "skillIds", "skill_ids":
		if skillIDs {
			p.Report(p.Agent.Flow, compile.PointerOf(m.Value), RuleOASSkillIDs,
				"the flow file declares "+strconv.Quote(m.Key)+"; an agent's skills come from the skills catalog (skills_installed_resolve_for_agent), never from oas.json, and the platform's skill-free invariant rejects the file")
		}
	case "system", "user", "description":
		if m.Value.Kind == compile.String {
			retiredCRM(p, m.Key, m.Value)
		}
	}
}

// platformRiskClass: OAS-RUNTIME-011 on object n, whose metadata member
// (the last, as Get) is meta (nil: none).
func platformRiskClass(p *Pass, n, meta *compile.Node) {
	if meta == nil {
		return
	}
	if rc, _ := meta.Path("cinatra", "riskClass").Str(); rc == "read_only" {
		if tool, ok := n.Path("data", "tool").Str(); ok && (parityWriteTools[tool] || parityWriteVerb.MatchString(tool)) {
			p.Report(p.Agent.Flow, compile.PointerOf(meta.Path("cinatra", "riskClass")), RuleOASRuntime011,
				"this node is labelled riskClass \"read_only\" but calls the writing tool "+strconv.Quote(tool)+"; the approval gate reads riskClass, so the write runs without being gated. Give it a writing risk class (for example \"write_safe\").")
		}
	}
}

// retiredCRM: one finding per string, naming every retired token in it.
// Each primitive has "s_" in it (one scan finds them all), and each
// typeHint, like the objects_list pattern, "@cinatra-ai/entity-": a string
// with neither costs two scans.
func retiredCRM(p *Pass, key string, v *compile.Node) {
	text := v.Text
	hits := crmPrimitivesIn(text)
	if strings.Contains(text, "@cinatra-ai/entity-") {
		for _, h := range retiredTypeHints {
			if strings.Contains(text, h) {
				hits = append(hits, h)
			}
		}
		if strings.Contains(text, "objects_list") && objectsListCRMRe.MatchString(text) {
			hits = append(hits, "objects_list over a CRM entity type")
		}
	}
	if len(hits) > 0 {
		p.Report(p.Agent.Flow, compile.PointerOf(v), RuleRetiredCRMPrimitive,
			"the model-visible "+strconv.Quote(key)+" names what the CRM migration retired ("+strings.Join(hits, ", ")+"); a model told to call it fails at run time. Use the crm_* facade (crm_account_search, crm_contact_search, …).")
	}
}

// indexSUnderscore is the offset of the first "s_" of text at or after i
// (i plus strings.Index(text[i:], "s_")), or -1: a search for the '_',
// rarer in prose than the 's' a substring search is led by, and a look at
// the byte before it.
func indexSUnderscore(text string, i int) int {
	for j := i + 1; j < len(text); {
		k := strings.IndexByte(text[j:], '_')
		if k < 0 {
			return -1
		}
		at := j + k
		if text[at-1] == 's' {
			return at - 1
		}
		j = at + 1
	}
	return -1
}

// crmPrimitivesIn lists the retired primitives named as words in text, in
// the order of retiredCRMPrimitives: one scan for "s_" (every one of them
// is lists_…, accounts_… or contacts_…).
func crmPrimitivesIn(text string) []string {
	var found [32]bool
	seen := false
	for i := 0; ; {
		at := indexSUnderscore(text, i)
		if at < 0 {
			break
		}
		i = at + 2
		for _, stem := range [...]string{"lists", "accounts", "contacts"} {
			start := at + 1 - len(stem)
			if start < 0 || text[start:at+1] != stem || (start > 0 && isWordByte(text[start-1])) {
				continue
			}
			rest := text[start:]
			for j, tok := range retiredCRMPrimitives {
				if strings.HasPrefix(rest, tok) && (len(rest) == len(tok) || !isWordByte(rest[len(tok)])) {
					found[j], seen = true, true
				}
			}
		}
	}
	if !seen {
		return nil
	}
	var hits []string
	for j, tok := range retiredCRMPrimitives {
		if found[j] {
			hits = append(hits, tok)
		}
	}
	return hits
}

func isProseKey(k string) bool {
	switch k {
	case "system_prompt", "prompt_template", "instructions", "task", "taskSpec", "system", "user", "message":
		return true
	}
	return false
}
