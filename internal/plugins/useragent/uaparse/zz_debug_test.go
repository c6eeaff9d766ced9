package uaparse

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, ua := range strings.Split(os.Getenv("UA"), "\n") {
		if ua == "" {
			continue
		}
		r := New(Options{}).Analyze(ua)
		fmt.Printf("%s\n", ua)
		for _, n := range coreAttributes {
			fmt.Printf("   %s=%q", n, r.Get(n))
		}
		fmt.Println()
	}
}
