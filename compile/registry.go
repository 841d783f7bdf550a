package compile

import (
	_ "embed"
	"sync"
)

// The built-in registry is the one the Cinatra docs publish
// (agents/_shared/cinatra/components.json): shared-llm-config,
// cinatra-mcp-toolbox and a2a-default-connection. It applies when no
// registry file is found or given.
//
//go:embed builtin/components.json
var builtinRegistrySrc []byte

// BuiltinRegistryPath is how the built-in registry is named in findings.
const BuiltinRegistryPath = "<built-in registry>"

var builtinRegistry = sync.OnceValue(func() *Doc { return ParseDoc(BuiltinRegistryPath, builtinRegistrySrc) })

// BuiltinRegistry returns the parsed built-in registry document root.
// It is parsed once and shared: callers must not modify it.
func BuiltinRegistry() *Node { return builtinRegistry().Root }
