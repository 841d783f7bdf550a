package diff

import "flag"

// update is the package's one -update flag: go test ./diff -update
// rewrites the history goldens and the checks' expected outputs.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")
