package compile

import (
	"reflect"
	"testing"
)

// TestMergeOfNothing: merge of no metadata (both nil), which returns no
// values without looking, is what coalescing the lookups in nothing gives.
func TestMergeOfNothing(t *testing.T) {
	var p, l *Node
	want := merged{
		a2uiSurfaceID:    coalesce(get(p, "a2uiSurfaceIdOverride"), get(l, "a2uiSurfaceId"), get(p, "a2uiSurfaceId")),
		renderer:         coalesce(get(p, "renderer"), get(l, "renderer")),
		requiresApproval: coalesce(get(p, "requiresApproval"), get(l, "requiresApproval")),
		riskClass:        coalesce(get(p, "riskClass"), get(l, "riskClass")),
		hitlOwnedBy:      coalesce(get(p, "hitlOwnedBy"), get(l, "hitlOwnedBy")),
	}
	if got := merge(p, l); !reflect.DeepEqual(got, want) {
		t.Errorf("merge(nil, nil) = %+v, want %+v", got, want)
	}
}
