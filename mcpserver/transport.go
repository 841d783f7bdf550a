package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport (go-sdk v1.8.0) ends the session, and the
// process, on the first line that is not a JSON-RPC message it can decode
// (not JSON, a batch, "jsonrpc":"1.0", an object id, a truncated object,
// an escape byte) and on a line over its 16 MiB default, which an inline
// source within our own 16 MiB limit exceeds once JSON escapes it. A
// server answers a bad message with an error and keeps serving, as our
// language server does: lineFilter reads the client's lines first, hands
// the SDK only the ones it would accept, and answers the others itself.

// maxLine bounds one message line: the largest inline source we accept
// (maxSource) with every byte escaped as JSON's worst case (\u00XX, six
// bytes), plus room for the rest of the message. A longer line is read
// through to its newline without being kept, and answered with an error.
const maxLine = 6*maxSource + 1<<20

// panicOnLine is a line whose check panics (the tests of its recovery).
var panicOnLine string

// JSON-RPC error codes of the replies lineFilter writes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Serve serves one client on in and out (newline-delimited JSON-RPC, as
// the stdio transport) until in ends or ctx is done.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go filterLines(in, pw, w, s.lineLimit)
	return s.Server.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}) // lines are capped here
}

// lockedWriter writes one message at a time: the SDK writes each of its
// messages in one Write, and lineFilter's replies go between them.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterLines copies the lines of in that are JSON-RPC messages the SDK
// decodes to pw, answers every other line on w with a JSON-RPC error, and
// closes pw when in ends (or the SDK stops reading). A line is at most
// limit bytes (maxLine).
func filterLines(in io.Reader, pw *io.PipeWriter, w io.Writer, limit int) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, long, err := readLine(r, limit)
		if long {
			reply(w, nil, codeInvalidRequest, fmt.Sprintf("message longer than %d bytes (inline sources are limited to %d bytes)", limit, maxSource))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if id, code, msg := check(line); code != 0 {
				reply(w, id, code, msg)
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line without its newline, keeping at most limit
// bytes (maxLine): long reports a longer line (read through, not kept).
func readLine(r *bufio.Reader, limit int) (line []byte, long bool, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		if !long {
			if len(line)+len(frag) > limit+1 { // +1: the newline
				line, long = nil, true
			} else {
				line = append(line, frag...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimRight(line, "\r\n"), long, err
		}
	}
}

// check is zero for a line the SDK accepts: one JSON object that
// jsonrpc.DecodeMessage decodes. Else the error to answer it with, and the
// id it is answered under (the line's own when it has a valid one).
func check(line []byte) (id json.RawMessage, code int, msg string) {
	defer func() { // a panic decoding one line is that line's error, never the server's end
		if r := recover(); r != nil {
			id, code, msg = nil, codeParseError, fmt.Sprintf("internal error reading the message: %v", r)
		}
	}()
	if panicOnLine != "" && string(line) == panicOnLine {
		panic("test panic reading a line")
	}
	if !json.Valid(line) {
		return nil, codeParseError, "parse error: the line is not one JSON value"
	}
	t := bytes.TrimSpace(line)
	if t[0] != '{' {
		return nil, codeInvalidRequest, "invalid request: a message is a JSON object (batches are not supported)"
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(t, &m) == nil && validID(m.ID) {
		id = m.ID
	}
	if _, err := jsonrpc.DecodeMessage(t); err != nil {
		return id, codeInvalidRequest, "invalid request: " + err.Error()
	}
	if isResponse := m.Result != nil || m.Error != nil; (m.Method != nil) == isResponse {
		return id, codeInvalidRequest, "invalid request: neither a request, a notification nor a response"
	}
	return nil, 0, ""
}

// validID: a JSON-RPC request id, a string or a number.
func validID(id json.RawMessage) bool {
	var v any
	if len(id) == 0 || json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// reply writes one JSON-RPC error response.
func reply(w io.Writer, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		return
	}
	_, _ = w.Write(append(b, '\n'))
}
