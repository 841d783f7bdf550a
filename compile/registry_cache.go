package compile

import "sync"

// RegistryCache shares the global component registry between the agents
// loaded in one run (LoadOptions.Registries): every agent of an agents/
// tree names the same _shared/cinatra/components.json, which is then
// looked for, read and parsed once per run instead of once per agent. The
// Doc is shared read-only, as the built-in registry's is. Loading uses it
// only when it reads the disk itself (no Overlay, Allow or Rev); a run
// sees the registry as its first look found it, so a caller creates one
// cache per run (NewRegistryCache), never one that outlives a change of
// the files.
type RegistryCache struct {
	mu sync.Mutex
	m  map[string]*registryEntry
}

type registryEntry struct {
	exists   sync.Once
	found    bool
	read     sync.Once
	doc      *Doc
	findings []Finding // the findings readDoc raised for it
}

// NewRegistryCache returns an empty cache for one run.
func NewRegistryCache() *RegistryCache { return &RegistryCache{m: map[string]*registryEntry{}} }

func (c *RegistryCache) entry(path string) *registryEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[path]
	if e == nil {
		e = &registryEntry{}
		c.m[path] = e
	}
	return e
}

// usable: the cache may stand for the reads of a loading with ov.
func (c *RegistryCache) usable(ov overlay) bool {
	return c != nil && ov.files == nil && ov.allow == nil && ov.rev == nil
}

// exists is ov.exists(path), asked once per run.
func (c *RegistryCache) exists(ov overlay, path string) bool {
	e := c.entry(path)
	e.exists.Do(func() { e.found = ov.exists(path) })
	return e.found
}

// readDoc is readDoc(ov, path, findings), read and parsed once per run;
// each caller gets the findings appended anew.
func (c *RegistryCache) readDoc(ov overlay, path string, findings *[]Finding) *Doc {
	e := c.entry(path)
	e.read.Do(func() { e.doc = readDoc(ov.shared(), path, &e.findings) })
	*findings = append(*findings, e.findings...)
	return e.doc
}
