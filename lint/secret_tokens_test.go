package lint

import (
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// The detector and its tests live in present; the check tests here
// use the same fake tokens.

// The fake credentials of internal/testshared (one per provider family).
var (
	tk = testshared.Token

	fakeGH     = testshared.FakeGitHub
	fakeOpenAI = testshared.FakeOpenAI
	fakeAnth   = testshared.FakeAnthropic
	fakeJWT    = testshared.FakeJWT
	fakePEM    = testshared.FakePEM
	fakeAWS    = testshared.FakeAWS
	fakeRandom = testshared.FakeRandom
)

// secSharedDir is ../shared beside the repository (the test skips without it).
func secSharedDir(t testing.TB) string { return testshared.Dir(t) }

// secGitleaksRow is one row of the labelled sample set (the detector's
// measurement in present reads the same file, with more fields).
type secGitleaksRow = testshared.SecretSample

func secLoadGitleaks(t testing.TB) []secGitleaksRow { return testshared.SecretSamples(t) }
