package uaparse

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMain builds the model before any test runs: most tests call the
// rules directly rather than through New, which would build it. Test
// variables computed from the model are set here too, since package
// initialisation runs before the model is built.
func TestMain(m *testing.M) {
	ensureModel()
	genAffixes = buildGenAffixes()
	genTableNames = buildGenTableNames()
	os.Exit(m.Run())
}

// initLine is a line of GODEBUG=inittrace=1: the package, the bytes its
// initialisation allocated. A package whose initialisation runs no code
// has no line.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, \d+ allocs$`)

// TestModelBuiltOnFirstUse runs a program that imports the package without
// calling it, as every weir process without ParseUserAgent does: the
// package's initialisation must allocate (almost) nothing, and leave
// (almost) nothing live. It built the whole model before (5.4 MB
// allocated, 2.2 MB live). Then the same program analyses a user agent,
// which must build the model and answer.
func TestModelBuiltOnFirstUse(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "initprobe")
	build := exec.Command("go", "build", "-o", bin, "./testdata/initprobe")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build testdata/initprobe: %v\n%s", err, out)
	}
	run := func(args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("initprobe %v: %v\n%s%s", args, err, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	heapOf := func(stdout string) int {
		t.Helper()
		m := regexp.MustCompile(`(?m)^heap (\d+)$`).FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("no heap line in the output of initprobe:\n%s", stdout)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	pkg := reflect.TypeFor[Analyzer]().PkgPath()

	stdout, trace := run()
	lines := initLine.FindAllStringSubmatch(trace, -1)
	if len(lines) == 0 {
		// The trace is what the test reads; without it the test would
		// pass for nothing.
		t.Fatalf("GODEBUG=inittrace=1 printed no init lines:\n%s", trace)
	}
	initBytes := 0
	for _, l := range lines {
		if l[1] == pkg {
			initBytes, _ = strconv.Atoi(l[2])
		}
	}
	const maxInitBytes = 64 << 10
	if initBytes > maxInitBytes {
		t.Errorf("initialising %s allocated %d bytes, want at most %d: is something built at package level instead of in buildModel?",
			pkg, initBytes, maxInitBytes)
	}
	// A Go program that does nothing has a live heap of well under
	// 100 KiB.
	const maxIdleHeap = 1 << 20
	idle := heapOf(stdout)
	if idle > maxIdleHeap {
		t.Errorf("live heap of a program importing %s without calling it: %d bytes, want at most %d", pkg, idle, maxIdleHeap)
	}

	stdout, _ = run("use")
	if !strings.Contains(stdout, "DeviceClass Phone\n") {
		t.Errorf("after the model was built on first use, want DeviceClass Phone; initprobe wrote:\n%s", stdout)
	}
	// The model is what the idle program does not hold: the bound above
	// would not tell them apart if it were bigger than the model.
	used := heapOf(stdout)
	if used <= maxIdleHeap {
		t.Errorf("live heap with the model built: %d bytes, want more than %d (the bound for the idle program)", used, maxIdleHeap)
	}
	t.Logf("%s: init %d bytes; live heap %d bytes idle, %d with the model", pkg, initBytes, idle, used)
}

// TestVariantNumber shows a model sent without its maker's name, one code
// followed by an underscore and a number: the number counts a variant, the
// memory or the year and is left out; a model of more words, or a code
// after the maker's name, keeps it.
func TestVariantNumber(t *testing.T) {
	for in, want := range map[string]string{
		"ZT216_5":       "ZT216",
		"F105D_128":     "F105D",
		"M7Go_2019":     "M7Go",
		"Venus_V3_5020": "Venus_V3_5020",
		"Tesla_SP9_2":   "Tesla_SP9_2",
		"Kamba_2":       "Kamba_2",
		"X1_12345":      "X1_12345",
	} {
		if got := withoutVariantNumber(in); got != want {
			t.Errorf("withoutVariantNumber(%q) = %q, want %q", in, got, want)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 10; R7_2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.120 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Mobicel", "DeviceName": "Mobicel R7"}},
	})
}

// TestVerykoolNumber shows Verykool's phones named by their name without
// the model number written after it; the number alone stays the model.
func TestVerykoolNumber(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 5.1; verykool Giant s5020) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/84.0.4147.111 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Verykool", "DeviceName": "Verykool Giant"}},
		{"Mozilla/5.0 (Linux; Android 5.1; verykool_Fusion_II_SL4502) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.98 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Verykool", "DeviceName": "Verykool Fusion II"}},
	})
	if got := withoutVerykoolNumber("s5020"); got != "s5020" {
		t.Errorf("withoutVerykoolNumber(s5020) = %q, want it kept", got)
	}
}

// TestMakerModelName shows the makers' tags around a model left out of its
// name, for the makers that write them; another maker's model keeps them.
// The models are made up.
func TestMakerModelName(t *testing.T) {
	for _, c := range []struct{ brand, rest, want string }{
		{"Multilaser", "ML-WI-M99-3G", "M99-3G"},
		{"Haier", "HM-G999-FL", "G999"},
		{"Vinga", "VMP-099-664", "099"},
		{"Verykool", "Giant s5099", "Giant"},
		{"Haier", "HM-G999", "HM-G999"},
		{"Acme", "ML-WI-M99-3G", "ML-WI-M99-3G"},
	} {
		if got := makerModelName(c.brand, c.rest); got != c.want {
			t.Errorf("makerModelName(%q, %q) = %q, want %q", c.brand, c.rest, got, c.want)
		}
	}
}

// TestAndroidAfterModel shows the system's name written after the model
// left out of the device's name.
func TestAndroidAfterModel(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 4.4.2; O+ 8.99 Android) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.93 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "O+", "DeviceName": "O+ 8.99"}},
	})
}
