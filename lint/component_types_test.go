package lint

import (
	"maps"
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
)

// compile.ComponentTypes (the one table the checks and editors use) is
// exactly what the embedded schemas define.
func TestComponentTypesMatchTheSchemas(t *testing.T) {
	fromSchemas := slices.Sorted(maps.Keys(schemaComponentTypes()))
	if table := compile.ComponentTypes(); !slices.Equal(table, fromSchemas) {
		t.Errorf("compile.ComponentTypes:\n%v\nthe schemas define:\n%v", table, fromSchemas)
	}
}
