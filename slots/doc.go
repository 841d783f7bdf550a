// Package slots is the dev-time stand-in for the platform's context slots
// (SPEC §5, reference cinatra.md §13): reading an agent's declared
// contextSlots, the artifact catalog, the resolver (single-hop satisfies
// expansion, eligible assertions, latest revision pinned, project
// fail-closed, scope order, override/accumulate, maxItems), the selection
// rules a picker enforces (min/max, one for override), the userResponse
// envelope, and the append-only audit store.
//
// The package is pure: no terminal, no globals, deterministic output.
package slots
