package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The JSON-RPC 2.0 layer over the LSP base protocol (Content-Length
// framed messages). It is our own, about a hundred lines, because
// go.lsp.dev/jsonrpc2 (the transport beside go.lsp.dev/protocol) ends the
// connection on the first message that does not decode and has no hook to
// recover a handler's panic; the issue asks for a protocol error and a
// server that keeps serving in both cases. The message types are the
// protocol's (go.lsp.dev/protocol).

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// maxMessage bounds one message: a flow file is at most
// compile.MaxFileBytes (16 MiB); JSON escaping can double it.
const maxMessage = 40 << 20

// message is any JSON-RPC message as received.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (m *message) isRequest() bool      { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }
func (m *message) isNotification() bool { return m.Method != "" && len(m.ID) == 0 }

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
	Error   *rpcError       `json:"error,omitempty"`
}

// responseErr drops the result member (an error response has none).
type responseErr struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcError       `json:"error"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// errFraming is a header that cannot be read: the stream is lost.
var errFraming = errors.New("lsp: bad message framing")

// readMessage reads one framed message body. A malformed header is
// errFraming (wrapped: the next message may still be read); io.EOF at a
// message boundary ends the stream, io.ErrUnexpectedEOF inside a message;
// any other error is the reader's.
func readMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	sawHeader := false
	for {
		line, err := readLine(r)
		if errors.Is(err, errLongLine) {
			return nil, fmt.Errorf("%w: a header line longer than %d bytes", errFraming, maxHeaderLine)
		}
		if err != nil {
			if errors.Is(err, io.EOF) && (sawHeader || line != "") {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err // io.EOF at a message boundary, or the reader's error
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader { // a stray blank line between messages
				continue
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header %q", errFraming, line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("%w: Content-Length %q", errFraming, value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length", errFraming)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// maxHeaderLine bounds one header line ("Content-Length: 41943040" is
// 24 bytes; the longest Content-Type is shorter than this by far): a
// line without a newline costs a framing error, not memory.
const maxHeaderLine = 4 << 10

var errLongLine = errors.New("header line too long")

// readLine is r.ReadString('\n') holding at most maxHeaderLine bytes: a
// longer line is read through to its newline (or the end of the input)
// without keeping it, and is errLongLine.
func readLine(r *bufio.Reader) (string, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > maxHeaderLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return "", err
			}
			return "", errLongLine
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return string(line), err
		}
	}
}

// writeMessage frames v.
func writeMessage(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	_, err = w.Write(b.Bytes())
	return err
}
