package lint

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// The detector and its tests live in lint/secrets; the check tests here
// use the same fake tokens.

// Test tokens are assembled at run time so that no scanner (or push
// protection) mistakes this file for a leak.
func tk(parts ...string) string { return strings.Join(parts, "") }

var (
	fakeGH     = tk("ghp_", "R4nd0mT0k3nAbCdEfGhIjKlMnOpQrStUvWx12")
	fakeOpenAI = tk("sk-proj-", "Q9x2Lm4Np7Rs1Tv8Wy3Zb6Cd5Fg0Hj2Kk")
	fakeAnth   = tk("sk-ant-api03-", "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7")
	fakeJWT    = tk("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")
	fakePEM    = tk("-----BEGIN RSA ", "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yr5ZLkVTd0ZzQ9GgKk6pS1hQ2xYw\n-----END RSA ", "PRIVATE KEY-----")
	fakeAWS    = tk("AKIA", "Z7Q2W4E6R8T1Y3U5")
	fakeRandom = "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB"
)

// secSharedDir is ../shared beside the repository (the test skips without it).
func secSharedDir(t testing.TB) string { return testshared.Dir(t) }

// secGitleaksRow is one row of the labelled sample set (the detector's
// measurement in lint/secrets reads the same file, with more fields).
type secGitleaksRow = testshared.SecretSample

func secLoadGitleaks(t testing.TB) []secGitleaksRow { return testshared.SecretSamples(t) }
