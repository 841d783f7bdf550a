// Package slots is the dev-time stand-in for the platform's context slots
// (SPEC §5, reference cinatra.md §13): reading an agent's declared
// contextSlots, the artifact catalog, the resolver (single-hop satisfies
// expansion, eligible assertions, latest revision pinned, project
// fail-closed, scope order, override/accumulate, maxItems), the selection
// rules a picker enforces (min/max, one for override) and the userResponse
// envelope. The append-only audit store of confirmed selections is its own
// package, slots/audit, so that only the faces that record a confirmation
// (the picker, `oastui pick`, `oastui audit`) link SQLite.
//
// The package has no terminal and no globals and its output is
// deterministic; reading the catalog file is its only I/O.
package slots
