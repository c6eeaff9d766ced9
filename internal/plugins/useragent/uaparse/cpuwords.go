package uaparse

import (
	"slices"
	"strings"
)

// cpuWords maps the lower case key of every row of tables/cpu_words.tsv
// to the processor; its keys are in wholeNameMasks.
var cpuWords map[string]string

func buildCPUWords() map[string]string {
	rows := loadTable("cpu_words.tsv", tableColumns["cpu_words.tsv"])
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		key := asciiLower(r[0])
		m[key] = r[1]
		wholeNameMasks.add("cpu_words.tsv", key)
		cpuWordStarts.add(key)
	}
	return m
}

// cpuWordNeedles has every key of cpuWords as a needle. Every text
// cpuFromWords looks up is a part of the lower case user agent, so a key
// it can find is one the scan saw: without any, the search is skipped, as
// it is for most user agents that get there.
var cpuWordNeedles needleGroup

func buildCPUWordNeedles() needleGroup {
	keys := make([]string, 0, len(cpuWords))
	for k := range cpuWords {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the needles' identifiers do not depend on the map's order
	return uaNeedles.group(keys)
}

// cpuWordStarts are the first two bytes of the processor tags.
var cpuWordStarts keyStarts

// lookupCPUWord returns the processor whose key is the lower case text t.
func lookupCPUWord(t string) (string, bool) {
	if !wholeNameMasks.mayHold(t) {
		return "", false
	}
	c, ok := cpuWords[t]
	return c, ok
}

// cpuFromWords reads the processor from the tags of tables/cpu_words.tsv
// (Yauaa's CPUArchitectures lookup), for a user agent in which the rows of
// tables/cpu.tsv found none: the version of a "Sys_CPU" product (Kodi's
// "Sys_CPU/armv7l"), else a comment entry that is a tag ("(68K)"), else a
// tag in a window of two words of an entry, tried at the entry's first
// word, then its second, up to its fifth, where a window at the last word
// is that word alone ("Linux mips", "NetBSD alpha"). Within a step the
// first entry wins. It returns "" when no tag is found.
func (s *state) cpuFromWords() string {
	if !s.p.hasAny(&cpuWordNeedles) {
		return ""
	}
	return s.searchCPUWords()
}

// searchCPUWords is cpuFromWords without the test of the needles.
func (s *state) searchCPUWords() string {
	p := s.p
	for i := range p.products {
		if p.products[i].lword == "sys_cpu" {
			if c, ok := lookupCPUWord(asciiLower(p.products[i].version)); ok {
				return c
			}
		}
	}
	// One pass over the entries keeps the first whole entry that is a tag
	// and the window that starts at the earliest word, in the first entry
	// that has it; a whole entry wins over any window.
	whole, best, bestW := "", "", 5
	_, entries := s.keyCandidates()
	for i, e := range p.entries {
		t := p.ltext(e)
		if whole == "" && keyAt(entries, i) {
			if c, ok := lookupCPUWord(t); ok {
				whole = c
			}
		}
		start := 0
		for w := 0; w < bestW && start < len(t)-1; w++ {
			// Most windows are turned away by the first two bytes of
			// their first word before their end is looked for.
			if cpuWordStarts.mayStart(t[start:]) {
				if c, ok := lookupCPUWord(wordWindow(t[start:], 0)); ok {
					best, bestW = c, w
					break
				}
			}
			k := strings.IndexByte(t[start:], ' ')
			if k < 0 {
				break
			}
			start += k + 1
		}
	}
	if whole != "" {
		return whole
	}
	return best
}

// wordWindow returns words w and w+1 (counted from 0) of the space
// separated text t, or word w alone when it is the last, or "" when t has
// no word w. The window is a part of t: no string is built.
func wordWindow(t string, w int) string {
	start := 0
	for ; w > 0; w-- {
		k := strings.IndexByte(t[start:], ' ')
		if k < 0 {
			return ""
		}
		start += k + 1
	}
	end := len(t)
	if k := strings.IndexByte(t[start:], ' '); k >= 0 {
		if k2 := strings.IndexByte(t[start+k+1:], ' '); k2 >= 0 {
			end = start + k + 1 + k2
		}
	}
	return t[start:end]
}
