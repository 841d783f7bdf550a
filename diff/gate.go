package diff

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// The gate's own safety (issue 35, point 3). The config's diff: section
// sets the levels the gate (`oastui diff --fail-on`) judges by, and the
// config is a file of the repository under review: a change could lower
// the very checks that would catch it. So, as lint does for its security
// rules:
//   - lowering an approval-safety check (Check.Safety) below its level in
//     the table, or turning it off, needs a reason ({level: off, reason:
//     "…"}): ValidateReasons;
//   - every run says which safety checks are lowered, with the reason:
//     SafetyNotices;
//   - a change that lowers a level of the diff: section (as the old
//     revision had it) is itself a breaking change, diff_gate_relaxed,
//     which no diff: setting can lower: Options.BaseLevels.

// levelRank orders a diff: level, off lowest.
func levelRank(s string) int {
	switch s {
	case "breaking":
		return 3
	case "warn":
		return 2
	case "info":
		return 1
	}
	return 0
}

// effectiveLevel is check c's level under the diff: section m.
func effectiveLevel(c *Check, m map[string]string) string {
	if s, ok := m[c.ID]; ok {
		return s
	}
	return string(c.Level)
}

// lowered says m sets c below its table level.
func lowered(c *Check, m map[string]string) bool {
	s, ok := m[c.ID]
	return ok && levelRank(s) < levelRank(string(c.Level))
}

// ValidateReasons refuses a diff: section that lowers an approval-safety
// check without a reason (reasons: lint.Config.DiffReasons).
func ValidateReasons(levels, reasons map[string]string) error {
	for _, id := range sortedKeys(levels) {
		c, ok := byID[id]
		if !ok || !c.Safety || !lowered(c, levels) || reasons[id] != "" {
			continue
		}
		return fmt.Errorf("diff: %s is an approval-safety check: setting it to %s needs a reason, as in\n  diff:\n    %s: {level: %s, reason: \"why this is safe\"}",
			id, levels[id], id, levels[id])
	}
	return nil
}

// SafetyNotices are what every run says about a diff: section that lowers
// approval-safety checks (path: the config file).
func SafetyNotices(levels, reasons map[string]string, path string) []string {
	var out []string
	for _, id := range sortedKeys(levels) {
		if c, ok := byID[id]; ok && c.Safety && lowered(c, levels) {
			out = append(out, present.Text(fmt.Sprintf("notice: approval-safety check %s is set to %s by %s (reason: %q)", id, levels[id], path, reasons[id])))
		}
	}
	return out
}

// BaseLevels is the diff: section of the config at configPath as revision
// rev has it (an empty section when the file is absent there); false when
// it cannot be read or parsed at rev (nothing is then compared).
func BaseLevels(rev *compile.GitRev, configPath string) (map[string]string, bool) {
	if rev == nil || configPath == "" {
		return nil, false
	}
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return nil, false
	}
	src, err := rev.ReadFile(abs, compile.MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, true
	}
	if err != nil {
		return nil, false
	}
	c, err := lint.ParseConfig(abs, src)
	if err != nil {
		return nil, false
	}
	if c.Diff == nil {
		return map[string]string{}, true
	}
	return c.Diff, true
}

// gate adds diff_gate_relaxed for each check the new diff: section sets
// lower than the base revision's did.
func (d *differ) gate(opts Options) {
	if opts.BaseLevels == nil {
		return
	}
	d.cur = checkerOf(CheckGateRelaxed)
	ids := map[string]bool{}
	for id := range opts.BaseLevels {
		ids[id] = true
	}
	for id := range opts.Levels {
		ids[id] = true
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	sort.Strings(list)
	for _, id := range list {
		c, ok := byID[id]
		if !ok || c == CheckGateRelaxed {
			continue
		}
		before, after := effectiveLevel(c, opts.BaseLevels), effectiveLevel(c, opts.Levels)
		if levelRank(after) >= levelRank(before) {
			continue
		}
		d.add(CheckGateRelaxed, "diff: "+id, "", before, after,
			fmt.Sprintf("the change relaxes its own gate: the config's diff: section lowers %s from %s to %s", id, before, after), nil, nil)
	}
}
