package uaparse

import "testing"

// TestBrandPrefixLengths guards the stack buffer of brandOfModel, which
// lower-cases only the first 32 bytes of a model: every brand and model
// prefix must fit in them.
func TestBrandPrefixLengths(t *testing.T) {
	for _, bp := range brandPrefixes {
		if len(bp.prefix) > 32 || len(bp.brand) > 32 {
			t.Errorf("brand prefix %q (%s) is longer than the 32 bytes brandOfModel compares", bp.prefix, bp.brand)
		}
	}
}
