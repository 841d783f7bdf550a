// Command gen turns one of OpenAI's published BPE rank files
// (<encoding>.tiktoken: one base64 token and its rank per line) into the
// table internal/bpe embeds: the tokens' bytes in rank order, their
// offsets, and an open-addressing hash table over them, all little-endian
// uint32s laid out so that the tokenizer reads the embedded bytes in place,
// with nothing to parse, sort or allocate at start (issue 27).
//
//	go generate ./internal/bpe   # runs, per encoding:
//	go run ./gen -enc o200k_base -out o200k_base.bpe
//
// The rank file is read from -src (default $BPE_SRC, else the module
// cache's copy of github.com/pkoukk/tiktoken-go-loader@v0.0.2/assets, which
// ships OpenAI's files unchanged), and refused unless its SHA-256 is the
// one OpenAI publishes (the hashes tiktoken itself checks). The files:
// https://openaipublic.blob.core.windows.net/encodings/<encoding>.tiktoken
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// sums are the SHA-256 of OpenAI's rank files (tiktoken_ext/openai_public.py).
var sums = map[string]string{
	"o200k_base":  "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
	"cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}

func main() {
	enc := flag.String("enc", "", "encoding: o200k_base or cl100k_base")
	src := flag.String("src", os.Getenv("BPE_SRC"), "directory holding <enc>.tiktoken")
	out := flag.String("out", "", "output file")
	flag.Parse()
	if err := run(*enc, *src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(enc, src, out string) error {
	sum, ok := sums[enc]
	if !ok || out == "" {
		return fmt.Errorf("-enc must be o200k_base or cl100k_base, and -out given")
	}
	if src == "" {
		mc, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return fmt.Errorf("no -src and no module cache: %w", err)
		}
		src = filepath.Join(strings.TrimSpace(string(mc)), "github.com", "pkoukk", "tiktoken-go-loader@v0.0.2", "assets")
	}
	raw, err := os.ReadFile(filepath.Join(src, enc+".tiktoken"))
	if err != nil {
		return err
	}
	if h := sha256.Sum256(raw); hex.EncodeToString(h[:]) != sum {
		return fmt.Errorf("%s.tiktoken: SHA-256 %x is not OpenAI's %s", enc, h, sum)
	}
	var toks [][]byte
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		b64, rk, ok := strings.Cut(line, " ")
		if !ok {
			return fmt.Errorf("bad line %q", line)
		}
		tok, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return err
		}
		r, err := strconv.Atoi(rk)
		if err != nil || r != len(toks) {
			return fmt.Errorf("rank %q out of order (want %d): the table stores tokens by rank", rk, len(toks))
		}
		toks = append(toks, tok)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	n := uint32(len(toks))
	slots := uint32(1)
	for slots < 2*n {
		slots <<= 1
	}
	table := make([]uint32, slots)
	offs := make([]uint32, 0, n+1)
	var blob []byte
	for i, t := range toks {
		offs = append(offs, uint32(len(blob)))
		blob = append(blob, t...)
		h := Hash(t) & (slots - 1)
		for table[h] != 0 {
			h = (h + 1) & (slots - 1)
		}
		table[h] = uint32(i) + 1
	}
	offs = append(offs, uint32(len(blob)))
	var w bytes.Buffer
	w.WriteString("BPE1")
	for _, v := range []uint32{n, slots, uint32(len(blob))} {
		binary.Write(&w, binary.LittleEndian, v)
	}
	binary.Write(&w, binary.LittleEndian, offs)
	binary.Write(&w, binary.LittleEndian, table)
	w.Write(blob)
	return os.WriteFile(out, w.Bytes(), 0o644)
}

// Hash is FNV-1a (32 bits); internal/bpe's hash must stay the same.
func Hash(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}
