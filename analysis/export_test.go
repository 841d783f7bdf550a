package analysis

// Helpers that only tests use (deadcode ./cmd/... reports none in production code).

// Count is the number of findings held back.
func (h Held) Count() int { return len(h.Unsafe) + len(h.Dangerous) }
