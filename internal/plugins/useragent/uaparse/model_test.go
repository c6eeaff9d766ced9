package uaparse

import (
	"os"
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
