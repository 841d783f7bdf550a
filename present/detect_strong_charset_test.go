package present

import "testing"

// The proof below KeyNeutral (secMayHoldStrong) reads only runs of
// secKeyByte and skips every aligned word holding another byte. It is
// sound only while every byte a provider key may hold (its prefix and
// every byte its body's charset lets through) is a secKeyByte: a provider
// added with a wider charset must widen secKeyByte too. The random
// shortest tokens of TestMayHoldStrongShortest would catch a missing byte
// only by chance; this checks every byte of every charset.
func TestStrongKeyBytesCoverProviders(t *testing.T) {
	for i := range secProviders {
		p := &secProviders[i]
		for j := 0; j < len(p.prefix); j++ {
			if !secKeyByte[p.prefix[j]] {
				t.Errorf("provider %s: prefix byte %q is not a secKeyByte", p.family, p.prefix[j])
			}
		}
		for c := range 256 {
			if secInCharset(byte(c), p.charset) && !secKeyByte[c] {
				t.Errorf("provider %s: body byte %q is not a secKeyByte", p.family, byte(c))
			}
		}
		if n := len(p.prefix) + p.minBody; n < secStrongMinRun {
			t.Errorf("provider %s spans %d bytes at least, below secStrongMinRun (%d)", p.family, n, secStrongMinRun)
		}
	}
}
