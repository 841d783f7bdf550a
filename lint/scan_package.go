package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
)

// Package scans (reference §7, SPEC §3.3): the flow's metadata and the
// package.json beside it must agree, and the package must carry a license.

var (
	RulePackageVersionOASPkgDrift = &Rule{Code: "package_version_oas_pkg_drift", Severity: compile.Blocker, Group: "package",
		Doc: "metadata.cinatra.packageVersion differs from package.json#version, so the startup loader skips re-importing the new code"}
	RuleAgentPackageMissingLicense = &Rule{Code: "agent_package_missing_license", Severity: compile.Blocker, Group: "package",
		Doc: "package.json has no license; an agent package needs an SPDX license to be published"}
	RulePackageNameMismatch = &Rule{Code: "package_name_mismatch", Severity: compile.Blocker, Group: "package",
		Doc: "metadata.cinatra.packageName differs from package.json#name"}
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
			p.Report(a.Flow, "/metadata/cinatra/packageVersion", RulePackageVersionOASPkgDrift,
				"metadata.cinatra.packageVersion \""+ov+"\" must match sibling package.json#version \""+pv+"\". Mismatch causes the startup loader (ensureAgentPackageFromGitFile) to read the stale OAS value, hit the version-skip guard, and silently skip re-importing the new code.")
		}
	}

	if lic, ok := pkg.Get("license").Str(); !ok || strings.TrimSpace(lic) == "" {
		msg := "package.json has no \"license\"; an agent package must declare an SPDX license (for example \"Apache-2.0\") before it can be published"
		if pkg.Get("license") != nil {
			msg = "package.json \"license\" is empty or not a string; an agent package must declare an SPDX license (for example \"Apache-2.0\") before it can be published"
		}
		p.Report(a.Package, "/license", RuleAgentPackageMissingLicense, msg)
	}

	if on, ok := meta.Get("packageName").Str(); ok && on != "" {
		if pn, ok := pkg.Get("name").Str(); ok && pn != "" && pn != on {
			p.Report(a.Flow, "/metadata/cinatra/packageName", RulePackageNameMismatch,
				"metadata.cinatra.packageName \""+on+"\" must match sibling package.json#name \""+pn+"\"; the platform installs the package and looks the agent up by that name")
		}
	}
}
