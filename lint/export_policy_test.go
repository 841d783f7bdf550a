package lint

// Helpers that only tests use (deadcode ./cmd/... reports none in production code).

// PolicyCompiles is the number of policy expressions this process has
// compiled: the tests that hold "compiled once per run" read it.
func PolicyCompiles() uint64 { return policyCompiles.Load() }
