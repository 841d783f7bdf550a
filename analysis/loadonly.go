package analysis

import (
	"time"

	"github.com/oastui/oastui/lint"
)

// Load is Run's first stage alone: path loaded, the config resolved, and
// the review of the loading findings only (the files' syntax and
// structure: invalid_json, duplicate_key, the package's own findings),
// under the config's overrides and ignores; no check of the flow runs.
// It is the language server's fast first answer on a large buffer (a
// 10 MB flow loads in a fraction of its full review). Run(path, opts)
// with opts.Agent = s.Agent and opts.Config = &s.Config goes on from it
// without loading or reading the config again.
func Load(path string, opts Options) (s *Snapshot) {
	start := time.Now()
	s = &Snapshot{Path: path, Mode: lint.ModeDeterministic, Started: start}
	defer func() {
		if r := recover(); r != nil {
			s.failed("loading", r)
		}
		s.Took = time.Since(start)
	}()
	if !s.load(path, opts) {
		return s
	}
	s.Review = lint.Run(s.Agent, lint.Options{Mode: lint.ModeDeterministic, Config: s.Config.Config, LoadOnly: true})
	return s
}
