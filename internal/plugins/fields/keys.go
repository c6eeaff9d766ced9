package fields

import "sort"

// sortedKeys returns the keys of m in order, so that dynamic properties
// apply in a deterministic order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
