package lint

// Config is the content of .oastui.yaml (SPEC §6). Loading it, ignores and
// unused-ignore reporting belong to the review issue; the zero value means
// "defaults".
type Config struct {
	Path         string            `yaml:"-"`
	AllowedHosts []string          `yaml:"allowed_hosts"`
	Rules        map[string]string `yaml:"rules"` // code → blocker|warning|suggestion|off
	Ignores      []Ignore          `yaml:"ignores"`
}

// Ignore silences one rule at one place, with a reason.
type Ignore struct {
	Rule    string `yaml:"rule"`
	File    string `yaml:"file"`
	Pointer string `yaml:"pointer"`
	Reason  string `yaml:"reason"`
}

// apply returns the findings after per-rule severity overrides.
func (c *Config) apply(fs []Finding) []Finding {
	if len(c.Rules) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		switch s := c.Rules[f.Code]; s {
		case "":
		case "off":
			continue
		default:
			f.Severity = Severity(s)
		}
		out = append(out, f)
	}
	return out
}
