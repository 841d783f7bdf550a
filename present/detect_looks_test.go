package present

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// The structural looks by their rarer bytes (round nineteen) against the
// calls they replaced, kept here as the oracles: secHasDashRun against
// strings.Contains(v, "-----") (secMayHoldStrong's PEM look), and
// secIndexSlackHooks against strings.Index(v, "hooks.slack.com/")
// (secFindSlackWebhook's).

func dashRunRef(v string) bool { return strings.Contains(v, "-----") }

func indexSlackHooksRef(v string) int { return strings.Index(v, "hooks.slack.com/") }

func checkLooks(t *testing.T, v string) {
	t.Helper()
	if got, want := secHasDashRun(v), dashRunRef(v); got != want {
		t.Fatalf("secHasDashRun(%q) = %v, want %v", v, got, want)
	}
	if got, want := secIndexSlackHooks(v), indexSlackHooksRef(v); got != want {
		t.Fatalf("secIndexSlackHooks(%q) = %d, want %d", v, got, want)
	}
}

func TestStructuralLooksSameAsIndex(t *testing.T) {
	// every string of '-' and 'x' up to 13 bytes: a run of five at every
	// offset modulo 5, at both ends, and runs of four around one byte
	for n := 0; n <= 13; n++ {
		for bits := 0; bits < 1<<n; bits++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = "x-"[bits>>i&1]
			}
			checkLooks(t, string(b))
		}
	}
	r := rand.New(rand.NewPCG(19, 39))
	frags := []string{"-", "--", "----", "-----", "x", " ", "\n", "é", "hooks", "hook", "ooks", "h", ".", ".slack.com/",
		"slack.com/", "hooks.slack.com/", "hooks.slack.com", ".slack.com", "s.slack.com/", "https://", "/services/",
		"-----BEGIN ", "xooks.slack.com/", "hooks.", "slack"}
	for range 20000 / race.Stride(8) {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(frags[r.IntN(len(frags))])
		}
		v := sb.String()
		checkLooks(t, v)
		for k := 1; k < len(v) && k < 8; k++ {
			checkLooks(t, v[k:])
			checkLooks(t, v[:len(v)-k])
		}
	}
	t.Run("corpus", func(t *testing.T) {
		secCorpusEach(t, 32, func(v string) { checkLooks(t, v) })
	})
}
