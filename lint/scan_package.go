package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// Package scans (reference §7, SPEC §3.3): the flow's metadata and the
// package.json beside it must agree, and the package must carry a license.

var (
	RulePackageVersionOASPkgDrift = &Rule{Code: "package_version_oas_pkg_drift", Severity: compile.Blocker, Group: "package",
		Doc:       "metadata.cinatra.packageVersion differs from package.json#version, so the startup loader skips re-importing the new code",
		AutoFixes: []string{"remove metadata.cinatra.packageVersion (the fix the corpus's authors shipped: the loader falls back to package.json's version)", "set metadata.cinatra.packageVersion to package.json's version", "set package.json's version to metadata.cinatra.packageVersion"},
		FixTiers:  []edit.Tier{edit.Safe, edit.Unsafe, edit.Unsafe}}
	RuleAgentPackageMissingLicense = &Rule{Code: "agent_package_missing_license", Severity: compile.Blocker, Group: "package",
		Doc:       "package.json has no license; an agent package needs an SPDX license to be published",
		AutoFixes: []string{"set package.json's license to .oastui.yaml's default_license, else UNLICENSED"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RulePackageNameMismatch = &Rule{Code: "package_name_mismatch", Severity: compile.Blocker, Group: "package",
		Doc:       "metadata.cinatra.packageName differs from package.json#name",
		AutoFixes: []string{"set metadata.cinatra.packageName to package.json's name"},
		FixTiers:  []edit.Tier{edit.Safe}}
)

var passPackage = &Check{Name: "scan_package", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkPackage}

func checkPackage(p *Pass) {
	a := p.Agent
	if a.Package == nil || a.Package.Root == nil || a.Package.Root.Kind != compile.Object {
		return
	}
	pkg := a.Package.Root
	meta := a.Flow.Root.Path("metadata", "cinatra")

	if ov, ok := meta.Get("packageVersion").Str(); ok && ov != "" {
		if pv, ok := pkg.Get("version").Str(); ok && pv != "" && pv != ov {
			p.ReportFix(a.Flow, "/metadata/cinatra/packageVersion", RulePackageVersionOASPkgDrift,
				"metadata.cinatra.packageVersion \""+ov+"\" must match sibling package.json#version \""+pv+"\". Mismatch causes the startup loader (ensureAgentPackageFromGitFile) to read the stale OAS value, hit the version-skip guard, and silently skip re-importing the new code.",
				// What the authors shipped (history: "chore: drop redundant
				// metadata.cinatra.packageVersion from OAS", eleven agents on
				// 2026-07-02): the loader falls back to package.json#version
				// when the OAS has none (cinatra-ai/cinatra
				// packages/agents/src/validate-agent-json.ts@a75fee7,
				// scanOasForPackageVersionSync), and the compiler takes
				// packageVersion from package.json (reference §11.10).
				newFix(edit.Safe, "remove metadata.cinatra.packageVersion: package.json's version \""+pv+"\" is the one the loader falls back to").add(fix.Remove(a.Flow, "/metadata/cinatra/packageVersion")).fix(),
				newFix(edit.Unsafe, "set metadata.cinatra.packageVersion to \""+pv+"\" (package.json's version)").add(fix.Replace(a.Flow, "/metadata/cinatra/packageVersion", pv)).fix(),
				newFix(edit.Unsafe, "set package.json's version to \""+ov+"\" (metadata.cinatra.packageVersion)").add(fix.Replace(a.Package, "/version", ov)).fix())
		}
	}

	if lic, ok := pkg.Get("license").Str(); !ok || strings.TrimSpace(lic) == "" {
		msg := "package.json has no \"license\"; an agent package must declare an SPDX license (for example \"Apache-2.0\") before it can be published"
		if pkg.Get("license") != nil {
			msg = "package.json \"license\" is empty or not a string; an agent package must declare an SPDX license (for example \"Apache-2.0\") before it can be published"
		}
		p.ReportFix(a.Package, "/license", RuleAgentPackageMissingLicense, msg, licenseFix(p, a.Package))
	}

	if on, ok := meta.Get("packageName").Str(); ok && on != "" {
		if pn, ok := pkg.Get("name").Str(); ok && pn != "" && pn != on {
			p.ReportFix(a.Flow, "/metadata/cinatra/packageName", RulePackageNameMismatch,
				"metadata.cinatra.packageName \""+on+"\" must match sibling package.json#name \""+pn+"\"; the platform installs the package and looks the agent up by that name",
				newFix(edit.Safe, "set metadata.cinatra.packageName to \""+pn+"\" (package.json's name)").add(fix.Replace(a.Flow, "/metadata/cinatra/packageName", pn)).fix())
		}
	}
}

// licenseFix sets package.json's license (replacing an empty or
// non-string one, else adding the member) to the config's default_license,
// else UNLICENSED (npm's word for "not licensed for use by others").
func licenseFix(p *Pass, pkg *compile.Doc) edit.Fix {
	lic := "UNLICENSED"
	if p.Config != nil && p.Config.DefaultLicense != "" {
		lic = p.Config.DefaultLicense
	}
	f := newFix(edit.Unsafe, "set package.json's license to \""+lic+"\"")
	if pkg.Root.Get("license") != nil {
		return f.add(fix.Replace(pkg, "/license", lic)).fix()
	}
	return f.add(fix.Insert(pkg, "", "license", lic)).fix()
}
