package uaparse

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// TestNoAnswerDecidedByOrder shows that the rules' answers do not depend on
// the order their writes happen in: on every golden input (all DEV user
// agents and their variants, the access log, hostile inputs), on every DEV
// user agent with its spaces removed and on every DEV user agent cut before
// and after each separator (136,000 inputs in all), no finding was written over a
// different value of the same confidence (slot.tied), so any order of the
// writes (the rule families reversed or shuffled) gives the same answer: the
// highest confidence wins, and at the highest confidence all writes agree.
// A rule that disagrees with another must say, by its confidence, which of
// the two is the more specific reading (confidence.go). Rules still read
// findings of earlier families (a robot rule reads the device name found
// before it), so the families keep their order in analyze; what no longer
// depends on it is which of two disagreeing writes wins.
//
// UAPARSE_ORDER_TIES=1 lists every finding decided by order, with its user
// agent.
func TestNoAnswerDecidedByOrder(t *testing.T) {
	var inputs []string
	for _, uas := range goldenInputs(t) {
		inputs = append(inputs, uas...)
	}
	dev := loadDev(t)
	for _, c := range dev {
		inputs = append(inputs, strings.ReplaceAll(c.UA, " ", ""))
	}
	for _, c := range dev {
		u := c.UA
		for i := 0; i < len(u); i++ {
			if strings.IndexByte(" /;()", u[i]) >= 0 {
				inputs = append(inputs, u[:i], u[i+1:])
			}
		}
	}
	byFinding := map[string]int{}
	var listed []string
	total := 0
	for _, ua := range inputs {
		analyzeReporting(ua, func(finding string) {
			byFinding[finding]++
			total++
			listed = append(listed, finding+" of "+ua)
		})
	}
	if os.Getenv("UAPARSE_ORDER_TIES") != "" {
		sort.Strings(listed)
		for _, l := range listed {
			t.Log(l)
		}
	}
	t.Logf("%d inputs, %d findings decided by rule order %v", len(inputs), total, byFinding)
	if total > 0 {
		t.Errorf("%d findings decided by rule order %v (UAPARSE_ORDER_TIES=1 lists them)", total, byFinding)
	}
}

// TestSlotTie shows the tie flag the test above relies on: set when a write
// of the slot's confidence brings a different value, cleared by a higher
// confidence, untouched by a lower one or by the same value again.
func TestSlotTie(t *testing.T) {
	var sl slot
	sl.set("Desktop", confGeneric)
	sl.set("Desktop", confGeneric)
	if sl.tied {
		t.Error("the same value twice is no tie")
	}
	sl.set("Tablet", confGeneric)
	if !sl.tied {
		t.Error("a different value of the same confidence is a tie")
	}
	sl.set("Robot", confGuess)
	if !sl.tied || sl.v != "Tablet" {
		t.Errorf("a lower confidence changed the slot: %q tied=%v", sl.v, sl.tied)
	}
	sl.set("Robot", confRobot)
	if sl.tied || sl.v != "Robot" {
		t.Errorf("a higher confidence decides: %q tied=%v", sl.v, sl.tied)
	}
	var s state
	s.devName.set("Generic", confGeneric)
	s.devName.set("Specific", confGeneric)
	var got []string
	s.reportTies(func(f string) { got = append(got, f) })
	if len(got) != 1 || got[0] != "DeviceName" {
		t.Errorf("reportTies = %v, want [DeviceName]", got)
	}
}
