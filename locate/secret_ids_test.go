package locate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
)

// TestHoverMasksTokenIDs: a token used as a component key and id (the
// FlowNode "sub_node"), and an AWS key inside an input title, are masked in
// every string the hover facts hold — ids, titles, data edges and the
// subflow's pointer (issue 26 items 10 and 12; the pointer was raw).
func TestHoverMasksTokenIDs(t *testing.T) {
	const aws = "AKIAQ3ZL7RWXP4N2M6TB"
	src := strings.ReplaceAll(scoped, `"sub_node"`, `"`+hostile.Token+`"`)
	src = strings.ReplaceAll(src, `"q"`, `"secret_`+aws+`"`)
	dir := t.TempDir()
	flow := filepath.Join(dir, "flow.json")
	reg := filepath.Join(dir, "components.json")
	a, err := compile.Load(flow, compile.LoadOptions{RegistryPath: reg, Overlay: map[string][]byte{flow: []byte(src), reg: []byte(registry)}})
	if err != nil || a.Flow.Root == nil {
		t.Fatal(err, a.Flow.Err)
	}
	x := New(a)
	s, ok := x.At(a.Flow.Path, offsetOf(t, a.Flow.Src, `"`+hostile.Token+`": {`, 0, 2))
	if !ok {
		t.Fatal("no symbol on the node key")
	}
	f, ok := x.Hover(s)
	if !ok {
		t.Fatal("no hover on the node key")
	}
	all := fmt.Sprintf("%+v", f)
	if f.Subflow == "" || len(f.Inputs) == 0 || strings.Contains(all, hostile.Token[4:]) || strings.Contains(all, aws[4:]) {
		t.Errorf("hover facts show a secret: %s", all)
	}
}
