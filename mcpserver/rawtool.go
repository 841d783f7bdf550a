package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// panicIn names a tool whose argument decoding or output encoding panics
// (the tests of registerTool's recovery, as panicOnLine for a line).
var panicIn struct{ decode, encode string }

// registerTool is mcp.AddTool (the SDK's typed tools, go-sdk v1.8.0)
// without its check of the output: the input is validated against the
// schema inferred from In, with its defaults, and decoded as the SDK
// does; the output is encoded once into the structured content and the
// text content (unless the handler set its own). The SDK encodes the
// output, decodes it again to validate it against the schema inferred
// from the very type it was encoded from, and encodes it once more: for
// agent_graph on a 4,000-node flow (a 2 MB output) that was half the
// call's time, twice `oastui graph`'s. The schemas the tools advertise are
// the same (jsonschema.ForType, as the SDK infers them).
func registerTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	in := schemaOf(reflect.TypeFor[In]())
	out := schemaOf(reflect.TypeFor[Out]())
	tt := *t
	tt.InputSchema, tt.OutputSchema = in.schema, out.schema
	srv.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() { // decoding the arguments or encoding the output: the call's error, never the server's end
			if r := recover(); r != nil {
				res, err = &mcp.CallToolResult{}, nil
				res.SetError(errors.New(maskText(fmt.Sprintf("internal error in %s: %v", t.Name, r))))
			}
		}()
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		var input In
		if panicIn.decode == t.Name {
			panic("test panic decoding " + string(args))
		}
		if err := in.decode(args, &input); err != nil {
			var res mcp.CallToolResult
			res.SetError(fmt.Errorf("validating \"arguments\": %v", err))
			return &res, nil
		}
		var output Out
		res, output, err = h(ctx, req, input)
		if err != nil {
			if wireErr, ok := err.(*jsonrpc.Error); ok {
				return nil, wireErr
			}
			var errRes mcp.CallToolResult
			errRes.SetError(err)
			return &errRes, nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if panicIn.encode == t.Name {
			panic("test panic encoding " + string(args))
		}
		b, err := json.Marshal(output)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		res.StructuredContent = json.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		}
		return res, nil
	})
}

// toolSchema is a type's inferred schema and its resolved form.
type toolSchema struct {
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
}

// schemas caches the tools' inferred schemas: a process that builds
// several servers (the tests; a host serving many clients) reflects over
// the types once. It holds only schemas of this package's fixed types.
var schemas sync.Map // reflect.Type → *toolSchema

func schemaOf(rt reflect.Type) *toolSchema {
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if v, ok := schemas.Load(rt); ok {
		return v.(*toolSchema)
	}
	s, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %v: %v", rt, err)) // our own fixed types: a programming error
	}
	r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %v: %v", rt, err))
	}
	v, _ := schemas.LoadOrStore(rt, &toolSchema{schema: s, resolved: r})
	return v.(*toolSchema)
}

// decode validates arguments (an object; absent is {}) against the
// schema, applies its defaults and decodes them into v.
func (ts *toolSchema) decode(args json.RawMessage, v any) error {
	m := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &m); err != nil {
			return fmt.Errorf("unmarshaling arguments: %w", err)
		}
		if m == nil { // "null"
			m = map[string]any{}
		}
	}
	if err := ts.resolved.ApplyDefaults(&m); err != nil {
		return fmt.Errorf("applying schema defaults: %w", err)
	}
	if err := ts.resolved.Validate(m); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
