package uaparse

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// devFile is the copy of the Yauaa DEV test cases kept in the repository
// (see testdata/useragents/README.md for origin and licence).
var devFile = filepath.Join("..", "..", "..", "..", "testdata", "useragents", "yauaa-dev.jsonl")

type devCase struct {
	UA          string            `json:"ua"`
	Expected    map[string]string `json:"expected"`
	ClientHints bool              `json:"client_hints"`
	Source      string            `json:"source"`
}

func loadDev(tb testing.TB) []devCase {
	tb.Helper()
	f, err := os.Open(devFile)
	if err != nil {
		tb.Fatalf("open DEV set: %v", err)
	}
	defer f.Close()
	var out []devCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c devCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			tb.Fatalf("decode DEV line: %v", err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read DEV set: %v", err)
	}
	return out
}

// coreAttributes are the attributes the core accuracy is computed over.
var coreAttributes = []string{
	"DeviceClass", "DeviceBrand", "DeviceName", "OperatingSystemClass", "OperatingSystemName",
	"OperatingSystemVersion", "LayoutEngineClass", "LayoutEngineName", "LayoutEngineVersionMajor",
	"AgentClass", "AgentName", "AgentVersionMajor",
}

// expectedValue maps Yauaa's placeholders to our convention: "??" and
// "Unknown ??" are Unknown, and "Name ??" is "Name Unknown".
func expectedValue(v string) string {
	switch v {
	case "??", "Unknown ??":
		return Unknown
	}
	if strings.HasSuffix(v, " ??") {
		return strings.TrimSuffix(v, "??") + Unknown
	}
	return v
}

type score struct{ ok, total int }

func (s score) pct() float64 {
	if s.total == 0 {
		return 0
	}
	return 100 * float64(s.ok) / float64(s.total)
}

// scoreDev analyses every UA-only DEV case and counts matches per attribute.
// Cases that also carry client hints are skipped: the analyzer reads the
// User-Agent header only, and Yauaa's expected values for them use the hints.
func scoreDev(t *testing.T) (map[string]score, score) {
	cases := loadDev(t)
	a := New(Options{})
	per := map[string]score{}
	var core score
	isCore := map[string]bool{}
	for _, n := range coreAttributes {
		isCore[n] = true
	}
	failAttr := os.Getenv("UAPARSE_FAILURES")
	for _, c := range cases {
		if c.ClientHints {
			continue
		}
		r := a.Analyze(c.UA)
		for name, want := range c.Expected {
			if !IsAttribute(name) {
				continue
			}
			want = expectedValue(want)
			got := r.Get(name)
			s := per[name]
			s.total++
			if got == want {
				s.ok++
			} else if failAttr == name || failAttr == "core" && isCore[name] {
				fmt.Printf("FAIL %s: got %q want %q | %s | %.200s\n", name, got, want, c.Source, c.UA)
			}
			per[name] = s
			if isCore[name] {
				core.total++
				if got == want {
					core.ok++
				}
			}
		}
	}
	return per, core
}

// Floors guard against regressions: they sit slightly below the accuracy
// reached when they were last raised. Raise them when accuracy improves.
var (
	coreFloor      = 97.9
	attributeFloor = map[string]float64{
		"DeviceClass": 98.4, "DeviceBrand": 97.5, "DeviceName": 95.7,
		"OperatingSystemClass": 99.2, "OperatingSystemName": 99.1, "OperatingSystemVersion": 98.5,
		"LayoutEngineClass": 99.0, "LayoutEngineName": 98.0, "LayoutEngineVersionMajor": 98.5,
		"AgentClass": 97.5, "AgentName": 95.9, "AgentVersionMajor": 96.8,
		"HackerAttackVector": 98.5, "HackerToolkit": 98.5,
	}
)

func TestDevAccuracy(t *testing.T) {
	per, core := scoreDev(t)
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return attributeIndex[names[i]] < attributeIndex[names[j]] })
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-32s %8s %6s\n", "attribute", "accuracy", "cases")
	for _, n := range names {
		fmt.Fprintf(&sb, "%-32s %7.1f%% %6d\n", n, per[n].pct(), per[n].total)
	}
	fmt.Fprintf(&sb, "core accuracy: %.2f%% (%d/%d)\n", core.pct(), core.ok, core.total)
	t.Log("\n" + sb.String())
	if core.pct() < coreFloor {
		t.Errorf("core accuracy %.2f%% is below the floor %.2f%%", core.pct(), coreFloor)
	}
	for n, floor := range attributeFloor {
		if got := per[n].pct(); got < floor {
			t.Errorf("%s accuracy %.2f%% is below the floor %.2f%%", n, got, floor)
		}
	}
}
