package chart

import (
	"slices"
	"strconv"
	"strings"
)

// TransitionLabels returns, by index, the text exporters draw on each
// transition of c: its test and value, "hitTrigger (left)" (or, in a plain
// diagram, its label as drawn), preceded by its rank, "2. ", when the state
// it leaves has several transitions (the any-state transitions rank among
// themselves), so that the order in which they are tried shows. Ranks
// follow Order, then chart order, as compile tries them.
func TransitionLabels(c *Chart) []string {
	groups := map[string][]int{}
	var keys []string
	for i := range c.Transitions {
		t := &c.Transitions[i]
		k := "s" + t.From
		if t.AnyState || t.From == "" {
			k = "*"
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	labels := make([]string, len(c.Transitions))
	for _, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b int) int { return c.Transitions[a].Order - c.Transitions[b].Order })
		for r, i := range g {
			t := &c.Transitions[i]
			text := t.Test
			if c.Stencil == nil && t.Label != "" {
				text = t.Label
			} else if t.Value != "" {
				text += " (" + t.Value + ")"
			}
			if len(g) > 1 {
				text = strconv.Itoa(r+1) + ". " + text
			}
			labels[i] = strings.TrimSpace(text)
		}
	}
	return labels
}
