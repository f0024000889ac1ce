package compile

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// searchFrom2 is suffixed as it was before it remembered where searches
// stopped: base, then base#2, base#3... from #2 every time, which costs
// O(k) per name and O(k²) for k states alike.
func searchFrom2(base string, taken map[string]int) string {
	name := base
	for n := 2; ; n++ {
		if _, dup := taken[name]; !dup {
			return name
		}
		suffix := "#" + strconv.Itoa(n)
		name = truncate(base, table.MaxName-len(suffix)) + suffix
	}
}

// TestSuffixedSameNames checks that suffixed gives the names a search
// from #2 gives, on random sequences of bases: short ones, names that
// look suffixed already ("a#3"), and long ones that cutting makes alike
// (bases of 250 to 255 bytes that differ in their last bytes, so that
// base#2 and base#10 cut them differently).
func TestSuffixedSameNames(t *testing.T) {
	long := strings.Repeat("x", 250)
	bases := []string{"a", "b", "state", "a#2", "a#3", "a#10", "a#1", "ab", "a#",
		long, long + "y", long + "yy", long + "yyy", long + "yyyy", long + "yyyyy", long + "yyyyz",
		long[:248] + "#9", long[:248] + "#12"}
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 1))
		pool := bases[:1+r.IntN(len(bases))]
		taken := make(map[string]int)
		next := make(map[suffixKey]int)
		for i := range 2000 {
			base := pool[r.IntN(len(pool))]
			if r.IntN(10) == 0 { // a name taken as it is, as a named state takes it
				name := base
				if r.IntN(2) == 0 {
					name = truncate(base, table.MaxName-3) + "#" + strconv.Itoa(2+r.IntN(200))
				}
				taken[name] = i
				continue
			}
			want := searchFrom2(base, taken)
			got := suffixed(base, taken, next)
			if got != want {
				t.Fatalf("seed %d, step %d: suffixed(%q) = %q, want %q", seed, i, short(base), short(got), short(want))
			}
			taken[got] = i
		}
	}
}
