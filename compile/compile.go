// Package compile is the bottom of the engine: it reads an agent and
// compiles it.
//
//   - Loading (Load): a package directory or a flow file, with its
//     package.json, cinatra.json, the tree's component registry and the
//     package's sibling files; regular files only (a symlink is followed
//     to one; the sibling walk follows none), within size and depth
//     limits; an editor's unsaved buffers as an overlay. Loading raises its own findings (agent_read_failed,
//     invalid_json, duplicate_key, legacy_agent_filename,
//     package_json_invalid) instead of failing.
//   - Documents (Doc, Node): JSON and YAML parsed into one tree that keeps
//     every value's byte offset, so a JSON Pointer maps to a line and
//     column (O(log n) per lookup).
//   - The flow model: $component_ref scopes, the BFS step order, the
//     child agents of the same agents/ tree.
//   - The compiler (Compile): the CompiledAgentOas the platform runs, as
//     the reference compiler builds it.
//
// It imports no other package of oastui but edit; analysis runs it for
// the faces.
package compile
