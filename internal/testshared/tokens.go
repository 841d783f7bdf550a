package testshared

import "strings"

// Fake credentials for the detector's and the checks' tests, one per
// provider family. They are assembled at run time so that no scanner (or
// push protection) mistakes the test files for a leak.
var (
	FakeGitHub    = Token("ghp_", "R4nd0mT0k3nAbCdEfGhIjKlMnOpQrStUvWx12")
	FakeOpenAI    = Token("sk-proj-", "Q9x2Lm4Np7Rs1Tv8Wy3Zb6Cd5Fg0Hj2Kk")
	FakeAnthropic = Token("sk-ant-api03-", "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7")
	FakeJWT       = Token("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")
	FakePEM       = Token("-----BEGIN RSA ", "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yr5ZLkVTd0ZzQ9GgKk6pS1hQ2xYw\n-----END RSA ", "PRIVATE KEY-----")
	FakeAWS       = Token("AKIA", "Z7Q2W4E6R8T1Y3U5")
	FakeRandom    = "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB" // high entropy, no provider prefix
)

// Token joins the parts of a fake credential (see above for why).
func Token(parts ...string) string { return strings.Join(parts, "") }
