package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/slots"
)

const slotsExampleAgent = "../../testdata/agents/oastui/example-agent"

func runSlotsCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

type slotsResolveOut struct {
	SlotID         string      `json:"slotId"`
	ResolutionMode string      `json:"resolutionMode"`
	Refs           []slots.Ref `json:"refs"`
}

func TestResolveDemoCatalog(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    []string // artifactId@revision:scope
		stderr  string
		code    int
		outHas  string
		errHas  string
		jsonOut bool
	}{
		{name: "no project: cut to maxItems 3", args: []string{"--slot", "styleContext"},
			want: []string{"art-my-notes@rev-mn-7:user", "art-my-voice@rev-mv-2:user", "art-team-tone@rev-tt-2:team"}, jsonOut: true},
		{name: "project p-launch: only its artifacts, scope project", args: []string{"--slot", "styleContext", "--project", "p-launch"},
			want: []string{"art-launch-plan@rev-lp-1:project", "art-launch-voice@rev-lv-3:project"}, jsonOut: true},
		{name: "project outside the actor's: empty", args: []string{"--slot", "styleContext", "--project", "p-secret"},
			want: []string{}, errHas: "not one of the actor's projects", jsonOut: true},
		{name: "unknown slot", args: []string{"--slot", "nope"}, code: exitUsage,
			errHas: "oastui: [context_resolve] no contextSlot with slotId='nope' found on the parent agent OAS\nthe agent's context slots: styleContext"},
		{name: "no --slot", args: nil, code: exitUsage, errHas: "--slot ID is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runSlotsCmd(t, append([]string{"resolve", slotsExampleAgent}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, out, errs)
			}
			if tc.errHas != "" && !strings.Contains(errs, tc.errHas) {
				t.Errorf("stderr %q lacks %q", errs, tc.errHas)
			}
			if !tc.jsonOut {
				return
			}
			var got slotsResolveOut
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got.SlotID != "styleContext" || got.ResolutionMode != "accumulate" || got.Refs == nil {
				t.Fatalf("envelope %+v", got)
			}
			var ids []string
			for _, r := range got.Refs {
				ids = append(ids, r.ArtifactID+"@"+r.RepresentationRevisionID+":"+r.SourceScope)
			}
			if strings.Join(ids, " ") != strings.Join(tc.want, " ") {
				t.Errorf("refs %q, want %q", ids, tc.want)
			}
			if !strings.HasPrefix(out, "{\n  \"slotId\": \"styleContext\",\n  \"resolutionMode\": \"accumulate\",\n  \"refs\": [") {
				t.Errorf("key order/indent:\n%s", out)
			}
		})
	}
}

// slotsTempWorkspace makes root/agents/v/a with a flow declaring slotsJSON and,
// when catalog != "", root/.oastui/catalog.json.
func slotsTempWorkspace(t *testing.T, slotsJSON, pkgName, catalog string) (root, agent string) {
	t.Helper()
	root = t.TempDir()
	agent = filepath.Join(root, "agents", "v", "a")
	if err := os.MkdirAll(filepath.Join(agent, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	flow := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"f",
  "metadata":{"cinatra":{"contextSlots":` + slotsJSON + `}},
  "start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"}],"control_flow_connections":[],"data_flow_connections":[],
  "$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"s"}}}`
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(agent, "cinatra", "oas.json"), flow)
	pkg := `{"version":"0.1.0"}`
	if pkgName != "" {
		pkg = `{"name":"` + pkgName + `","version":"0.1.0"}`
	}
	write(filepath.Join(agent, "package.json"), pkg)
	if catalog != "" {
		if err := os.MkdirAll(filepath.Join(root, ".oastui"), 0o755); err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(root, ".oastui", "catalog.json"), catalog)
	}
	return root, agent
}

const slotsOneSlot = `[{"slotId":"ctx","acceptedArtifactExtensions":["@v/x"],"selectionMode":"interactive","resolutionMode":"accumulate","minItems":1,"maxItems":2}]`

const slotsSmallCatalog = `{"actor":{"userId":"u1","teamIds":[],"organizationId":"o1","workspaceId":"w1","projectIds":[]},
 "extensions":[{"name":"@v/x","satisfies":[]}],
 "artifacts":[
  {"artifactId":"a","title":"A","ownerLevel":"user","ownerId":"u1","projectId":null,"deleted":false,
   "assertions":[{"semanticAssertionId":"sa","extension":"@v/x","eligibility":"eligible"}],
   "revisions":[{"representationRevisionId":"ra","createdAt":"2026-01-01T00:00:00Z","mime":"text/plain"}]},
  {"artifactId":"b","title":"B","ownerLevel":"workspace","ownerId":"w1","projectId":null,"deleted":false,
   "assertions":[{"semanticAssertionId":"sb","extension":"@v/x","eligibility":"eligible"}],
   "revisions":[{"representationRevisionId":"rb","createdAt":"2026-01-01T00:00:00Z","mime":"text/plain"}]}]}`

func TestResolveErrors(t *testing.T) {
	dup := `[` + strings.Trim(slotsOneSlot, "[]") + `,` + strings.Trim(slotsOneSlot, "[]") + `]`
	_, dupAgent := slotsTempWorkspace(t, dup, "@v/a", slotsSmallCatalog)
	code, _, errs := runSlotsCmd(t, "resolve", dupAgent, "--slot", "ctx")
	if want := "oastui: [context_resolve] duplicate slotId='ctx' on the parent agent OAS — slot ids must be unique per agent (resolver rejects ambiguity)\n"; code != exitUsage || errs != want {
		t.Errorf("duplicate: exit %d, stderr %q", code, errs)
	}

	_, noCat := slotsTempWorkspace(t, slotsOneSlot, "@v/a", "")
	code, _, errs = runSlotsCmd(t, "resolve", noCat, "--slot", "ctx")
	if code != exitUsage || !strings.Contains(errs, "no catalog at") {
		t.Errorf("no catalog: exit %d, stderr %q", code, errs)
	}

	bad := strings.Replace(slotsSmallCatalog, `"ownerLevel":"workspace"`, `"ownerLevel":"project"`, 1)
	_, badCat := slotsTempWorkspace(t, slotsOneSlot, "@v/a", bad)
	code, _, errs = runSlotsCmd(t, "resolve", badCat, "--slot", "ctx")
	if code != exitUsage || !strings.Contains(errs, "catalog.json:7:46:") || !strings.Contains(errs, "/artifacts/1/ownerLevel") || !strings.Contains(errs, "refinement") {
		t.Errorf("bad catalog: exit %d, stderr %q", code, errs)
	}

	unknown := strings.Replace(slotsSmallCatalog, `"deleted":false,`, `"deleted":false,"colour":"red",`, 1)
	_, unkCat := slotsTempWorkspace(t, slotsOneSlot, "@v/a", unknown)
	code, _, errs = runSlotsCmd(t, "resolve", unkCat, "--slot", "ctx")
	if code != exitUsage || !strings.Contains(errs, "colour") {
		t.Errorf("unknown member: exit %d, stderr %q", code, errs)
	}

	malformed := `[{"slotId":"ctx","acceptedArtifactExtensions":[],"selectionMode":"interactive","resolutionMode":"accumulate"}]`
	_, malAgent := slotsTempWorkspace(t, malformed, "@v/a", slotsSmallCatalog)
	code, _, errs = runSlotsCmd(t, "resolve", malAgent, "--slot", "ctx")
	if code != exitUsage || !strings.Contains(errs, "no contextSlot with slotId='ctx'") || !strings.Contains(errs, "acceptedArtifactExtensions") {
		t.Errorf("malformed slots: exit %d, stderr %q", code, errs)
	}

	root, ok := slotsTempWorkspace(t, slotsOneSlot, "@v/a", "")
	code, out, errs := runSlotsCmd(t, "resolve", ok, "--slot", "ctx", "--catalog", filepath.Join(root, "missing.json"))
	if code != exitUsage || out != "" || !strings.Contains(errs, "missing.json") {
		t.Errorf("--catalog missing: exit %d, stderr %q", code, errs)
	}
}
