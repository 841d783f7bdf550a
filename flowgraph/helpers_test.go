package flowgraph

import "flag"

// The package's one -update flag: `go test ./flowgraph -update` rewrites the
// golden files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")
