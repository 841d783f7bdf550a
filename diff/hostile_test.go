package diff

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/oastui/oastui/internal/hostile"
)

// Helpers that only tests use (deadcode ./cmd/... reports none in production code).

// DescribedFlow is hostile.Flow(n, true) with a description of words words on
// every node; variant 1 rewords every third word of each (the
// 1,000-reworded-descriptions input of issue 35).
func DescribedFlow(n, words, variant int) []byte {
	src := string(hostile.Flow(n, true))
	var out strings.Builder
	out.Grow(len(src) + n*words*10)
	rest := src
	for i := 0; i < n; i++ {
		key := fmt.Sprintf(`"id":"n%d","name":"Step %d"`, i, i)
		at := strings.Index(rest, key)
		if at < 0 {
			continue
		}
		out.WriteString(rest[:at+len(key)])
		rest = rest[at+len(key):]
		out.WriteString(`,"description":"`)
		for w := 0; w < words; w++ {
			if w > 0 {
				out.WriteByte(' ')
			}
			if variant == 1 && w%3 == 0 {
				fmt.Fprintf(&out, "changed%d", w)
			} else {
				fmt.Fprintf(&out, "word%d", w)
			}
		}
		out.WriteByte('"')
	}
	out.WriteString(rest)
	return []byte(out.String())
}

// RenamedFlow is hostile.Flow(n, true) with every node renamed (the
// 33,000-node-flow input of issue 35).
func RenamedFlow(n int) []byte {
	return bytes.ReplaceAll(hostile.Flow(n, true), []byte(`"name":"Step `), []byte(`"name":"Renamed step `))
}
