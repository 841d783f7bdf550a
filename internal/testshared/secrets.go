package testshared

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// SecretSample is one row of the labelled secret sample set
// (corpus/secrets/gitleaks-samples.jsonl).
type SecretSample struct {
	Rule         string `json:"rule"`
	Value        string `json:"value"`
	Label        string `json:"label"` // "secret" or not
	Context      string `json:"context"`
	Path         string `json:"path"`
	Synthetic    bool   `json:"synthetic"`
	Candidate    string `json:"candidate"`
	SuppressedBy string `json:"suppressed_by"`
}

// SecretSamples reads the labelled sample set, or skips t without it.
func SecretSamples(t testing.TB) []SecretSample {
	t.Helper()
	p := filepath.Join(Dir(t, "corpus", "secrets"), "gitleaks-samples.jsonl")
	f, err := os.Open(p)
	if err != nil {
		t.Skipf("no sample set: %v", err)
	}
	defer f.Close()
	var rows []SecretSample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r SecretSample
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: bad row: %v", p, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}
