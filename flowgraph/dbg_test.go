package flowgraph

import "testing"

func TestDbgWidth(t *testing.T) {
	for _, n := range []int{640, 2560, 10240} {
		g := generateGraph(n, 7)
		_, lo := Render(g, Options{})
		L := lo.parts[0]
		maxW := 0
		for _, layer := range L.layers {
			w := 0
			for _, e := range layer {
				w += L.elems[e].w + 2
			}
			if w > maxW {
				maxW = w
			}
		}
		t.Logf("n=%d W=%d H=%d maxLayerWidth=%d layers=%d", n, lo.Width, lo.Height, maxW, len(L.layers))
	}
}
