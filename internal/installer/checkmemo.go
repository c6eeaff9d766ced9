package installer

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// checkMemo remembers a plugin processor's answers to its own Check, by the
// values checked. The SDK's contract is that a Check depends on the values
// alone, and the binary that answers is fixed by its sha256 in the lock, so
// an answer holds for as long as the registry: a job that `weir run`
// validates and the engine validates again at stream start, or a pipeline
// change that leaves the plugin's values as they were, start the plugin once
// instead of at every validation. A failure to run the check is not
// remembered: the next validation tries again.
type checkMemo struct {
	check func(values map[string]string) ([]string, error)

	mu      sync.Mutex
	answers map[string][]string
}

// maxCheckAnswers bounds the memo: a process that validates ever new values
// (a remote config changing a key by hand, over days) forgets them all once
// it holds this many, rather than growing.
const maxCheckAnswers = 256

func newCheckMemo(check func(values map[string]string) ([]string, error)) *checkMemo {
	return &checkMemo{check: check, answers: map[string][]string{}}
}

// problems returns the plugin's answer for values, asking the plugin only
// when these values were not checked before.
func (m *checkMemo) problems(values map[string]string) ([]string, error) {
	key := valuesKey(values)
	m.mu.Lock()
	probs, ok := m.answers[key]
	m.mu.Unlock()
	if ok {
		return probs, nil
	}
	probs, err := m.check(values)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.answers) >= maxCheckAnswers {
		clear(m.answers)
	}
	m.answers[key] = probs
	return probs, nil
}

// valuesKey is a canonical, unambiguous spelling of values: keys sorted,
// each key and value prefixed by its length, so no value can imitate a
// separator.
func valuesKey(values map[string]string) string {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, s := range []string{k, values[k]} {
			b.WriteString(strconv.Itoa(len(s)))
			b.WriteByte(':')
			b.WriteString(s)
		}
	}
	return b.String()
}
