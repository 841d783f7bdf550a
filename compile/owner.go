package compile

import (
	"bytes"
	"path/filepath"
	"strings"
)

// Owner is the agent a file belongs to, as loading sees it: what a face
// handed single files (the language server) reviews when one changes.
type Owner struct {
	// Flow is the agent's flow file.
	Flow string
	// Load is the path to hand Load: the package directory when Flow is
	// the flow file loading a package finds (its legacy places included,
	// so the review has their legacy_agent_filename), else Flow itself.
	Load string
}

// OwnerOf says which agent path belongs to, reading overlay (path →
// contents, as LoadOptions.Overlay) before the disk:
//   - a package's package.json or cinatra.json: the package's agent;
//   - a package's flow file (cinatra/oas.json, or a legacy place): that
//     package's agent;
//   - another .json, .yaml or .yml file that reads as an Agent Spec
//     document (it mentions agentspec_version or component_type): itself.
//
// false for any other file (a tsconfig.json, a README, a registry: which
// agents read those is known only to whoever reviewed them).
func OwnerOf(path string, overlay map[string][]byte) (Owner, bool) {
	ov := newOverlay(overlay, nil, nil)
	path = filepath.Clean(path)
	if base := filepath.Base(path); base == "package.json" || base == "cinatra.json" {
		dir := filepath.Dir(path)
		for _, rel := range FlowCandidates {
			if p := filepath.Join(dir, filepath.FromSlash(rel)); ov.isFile(p) {
				return Owner{Flow: p, Load: dir}, true
			}
		}
		return Owner{}, false
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".yaml", ".yml":
	default:
		return Owner{}, false
	}
	if !atFlowPlace(path) && !looksLikeAgentSpec(ov, path) {
		return Owner{}, false
	}
	o := Owner{Flow: path, Load: path}
	if dir := packageDirOf(ov, path); dir != "" {
		for _, rel := range FlowCandidates {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if p == path {
				o.Load = dir // the flow file the package's loading finds
				break
			}
			if ov.isFile(p) {
				break // a place before it is taken: path is not the package's flow file
			}
		}
	}
	return o, true
}

// atFlowPlace: path sits where a package keeps its flow file
// (cinatra/oas.json, cinatra/agent.json; a bare agent.json is too common
// a name to count without its content).
func atFlowPlace(path string) bool {
	slash := filepath.ToSlash(path)
	for _, rel := range FlowCandidates {
		if strings.Contains(rel, "/") && strings.HasSuffix(slash, "/"+rel) {
			return true
		}
	}
	return false
}

// looksLikeAgentSpec: the file (within MaxFileBytes) mentions
// agentspec_version or component_type.
func looksLikeAgentSpec(ov overlay, path string) bool {
	src, err := ov.readFile(path, MaxFileBytes)
	return err == nil && (bytes.Contains(src, []byte("agentspec_version")) || bytes.Contains(src, []byte("component_type")))
}
