package report

import "flag"

// The package's one -update flag: `go test ./lint/report -update` rewrites the
// golden files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")
