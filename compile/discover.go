package compile

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// IsAgentDir says dir holds a flow file at one of a package's flow paths.
// Anything but a directory counts: a FIFO or a device there is the agent's
// flow file, which loading then refuses with a finding ("not a regular
// file") rather than the package being passed over.
func IsAgentDir(dir string) bool { return overlay{}.isAgentDir(dir) }

// isAgentDir is IsAgentDir on the disk or a git revision.
func (o overlay) isAgentDir(dir string) bool {
	for _, rel := range FlowCandidates {
		if o.isFile(filepath.Join(dir, filepath.FromSlash(rel))) {
			return true
		}
	}
	return false
}

// FindAgents lists the agent packages in the tree below root, sorted: every
// directory that IsAgentDir, not looking inside an agent package, _shared,
// node_modules or hidden directories. limit > 0 stops after that many.
func FindAgents(root string, limit int) ([]string, error) { return findAgents(overlay{}, root, limit) }

// findAgents is FindAgents on the disk or a git revision (FindAgentsRev).
func findAgents(ov overlay, root string, limit int) ([]string, error) {
	var out []string
	errLimit := fs.SkipAll
	err := walkDir(ov, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "_shared" || name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if ov.isAgentDir(p) {
			out = append(out, p)
			if limit > 0 && len(out) >= limit {
				return errLimit
			}
			return filepath.SkipDir
		}
		return nil
	})
	if err == errLimit {
		err = nil
	}
	sort.Strings(out)
	return out, err
}
