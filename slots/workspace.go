package slots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/oastui/oastui/compile"
)

// Default places of the dev catalog and the audit database, relative to the
// workspace root (the directory holding agents/).
var (
	CatalogFile = filepath.Join(".oastui", "catalog.json")
	AuditFile   = filepath.Join(".oastui", "audit.db")
)

// WorkspaceRoot is the directory holding the agents/ tree the agent lives
// in; for an agent outside any agents/ tree, its own package directory (or
// the directory of its flow file).
func WorkspaceRoot(a *compile.Agent) string {
	if a.TreeRoot != "" {
		return filepath.Dir(a.TreeRoot)
	}
	if a.Dir != "" {
		return a.Dir
	}
	return filepath.Dir(a.FlowPath)
}

// FindWorkspaceRoot walks up from dir to a directory that holds an agent
// tree, agents/ or extensions/ (or to the parent of a directory of that
// name, compile.TreeDirNames); dir itself when none.
func FindWorkspaceRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if compile.IsTreeDir(filepath.Base(d)) {
			return filepath.Dir(d)
		}
		for _, name := range compile.TreeDirNames {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && st.IsDir() {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}

// PackageName is the parent package name for audit rows: package.json name.
func PackageName(a *compile.Agent) (string, error) {
	if a.Package == nil || a.Package.Root == nil {
		return "", fmt.Errorf("%s has no readable package.json: the audit needs the parent package name", a.FlowPath)
	}
	name, ok := a.Package.Root.Get("name").Str()
	if !ok || name == "" {
		return "", fmt.Errorf("%s has no \"name\": the audit needs the parent package name", a.Package.Path)
	}
	return name, nil
}

// Prepared is everything a picker or `oastui resolve` needs for one slot.
type Prepared struct {
	Slot        Slot
	Catalog     *Catalog
	CatalogPath string
	Request     Request
	Candidates  []Ref // what context_resolve returns: cut to maxItems
	// Offered is what the picker offers: the same list before the maxItems
	// cut, so that maxItems is a limit on the choice (the renderer
	// disables unchecked boxes at the cap) rather than a silent cut of
	// who gets shown. Confirm revalidates against it.
	Offered []Ref
	Empty   Empty // why there are no candidates (Code "" when there are)
}

// ErrNoCatalog is returned by Prepare when the catalog file does not exist.
var ErrNoCatalog = errors.New("no catalog")

// Prepare finds the slot (with the context_resolve errors for a missing or
// duplicated slotId), reads the catalog (catalogPath, or the workspace
// default) and resolves the candidates.
func Prepare(a *compile.Agent, slotID, projectID, catalogPath string) (*Prepared, error) {
	var declared []Slot
	problem := ""
	if a.Flow != nil && a.Flow.Root != nil {
		declared, problem = Slots(a.Flow.Root)
	}
	slot, err := FindSlot(declared, slotID)
	if err != nil {
		if problem != "" {
			return nil, fmt.Errorf("%w (the agent's contextSlots are ignored: %s)", err, problem)
		}
		return nil, err
	}
	if catalogPath == "" {
		catalogPath = filepath.Join(WorkspaceRoot(a), CatalogFile)
	}
	if _, err := os.Stat(catalogPath); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s (pass --catalog FILE; the format is in the README)", ErrNoCatalog, catalogPath)
	}
	cat, err := LoadCatalog(catalogPath)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Slot: slot, Catalog: cat, CatalogPath: catalogPath,
		Request: Request{Actor: cat.Actor, Slot: slot, ProjectID: projectID}}
	uncut := p.Request
	uncut.Slot.MaxItems = 0
	p.Offered, err = Resolve(uncut, cat)
	if err != nil {
		return nil, err
	}
	p.Candidates = p.Offered
	if m := slot.MaxItems; m > 0 && len(p.Candidates) > m {
		p.Candidates = p.Candidates[:m] // truncation is the resolver's last step
	}
	if len(p.Offered) == 0 {
		p.Empty = Explain(p.Request, cat)
	}
	return p, nil
}
