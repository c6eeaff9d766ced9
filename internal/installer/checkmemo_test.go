package installer

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestCheckMemoAsksOncePerValues: the same values are checked by the plugin
// once, whatever the order they come in; other values are asked again; a
// failure to run the check is not remembered; the memo forgets everything
// when full instead of growing.
func TestCheckMemoAsksOncePerValues(t *testing.T) {
	fail := false
	runs := 0 // times the plugin was asked
	m := newCheckMemo(func(values map[string]string) ([]string, error) {
		runs++
		if fail {
			return nil, errors.New("plugin did not start")
		}
		if values["query.max"] == "0" {
			return []string{"query.keep lists parameters but query.max is 0"}, nil
		}
		return nil, nil
	})
	bad := map[string]string{"query.keep": "utm_source", "query.max": "0"}
	for range 3 {
		probs, err := m.problems(map[string]string{"query.max": "0", "query.keep": "utm_source"})
		if err != nil || len(probs) != 1 {
			t.Fatalf("problems = %q, %v; want the plugin's one problem", probs, err)
		}
	}
	if probs, _ := m.problems(bad); len(probs) != 1 || runs != 1 {
		t.Fatalf("after 4 checks of the same values: %q, %d runs of the plugin, want 1", probs, runs)
	}
	if probs, _ := m.problems(map[string]string{"query.max": "5"}); len(probs) != 0 || runs != 2 {
		t.Fatalf("new values: %q, %d runs, want none and 2", probs, runs)
	}
	// A value that spells another key's separator does not collide.
	if valuesKey(map[string]string{"a": "1:b"}) == valuesKey(map[string]string{"a": "1", "b": ""}) {
		t.Fatal("two different value sets share a memo key")
	}

	fail = true
	if _, err := m.problems(map[string]string{"query.max": "7"}); err == nil {
		t.Fatal("a failed check returned no error")
	}
	fail = false
	if _, err := m.problems(map[string]string{"query.max": "7"}); err != nil || runs != 4 {
		t.Fatalf("after a failure the same values: %v, %d runs, want a new run (4)", err, runs)
	}

	for i := range maxCheckAnswers + 10 {
		if _, err := m.problems(map[string]string{"n": fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(m.answers); n > maxCheckAnswers {
		t.Fatalf("memo holds %d answers, bound %d", n, maxCheckAnswers)
	}
	keys := make([]string, 0, len(m.answers))
	for k := range m.answers {
		keys = append(keys, k)
	}
	if slices.Contains(keys, valuesKey(bad)) {
		t.Fatal("the memo kept an answer from before it was cleared")
	}
}
