//go:build !unix

package compile

// readRegularRaw: the os path only (see readfile_raw_unix.go).
func readRegularRaw(path string, limit int64, blocks *Blocks) ([]byte, bool) { return nil, false }
