package config

import (
	"strings"

	"github.com/weir-streams/weir/internal/component"
)

// suppressions are what the walk of a job file could not know, so that the
// validation that runs on the partial job in the same run reports each
// fault once, in the words of the walk, rather than again as a consequence:
// an unset ${VAR} is "variable X is not set", not also "\"\" is not
// host:port"; a missing "component" is not also an unknown component "".
//
// Check's problems carry the path of their component and, for a property,
// its key (dataflow.validateComponent, component.NewConfig), which is what
// they are matched on.
type suppressions struct {
	// paths are exact problem paths to drop ("...[p].component").
	paths map[string]bool
	// whole are configuration paths whose every problem is dropped: the
	// configuration was not a mapping, or may be under a misspelt key.
	whole map[string]bool
	// keys are, per configuration path, the keys whose values are not
	// known; problems of those keys, and the component's own checks across
	// keys (which carry no key), are dropped.
	keys map[string]map[string]bool
	// unnamed are component paths whose name was missing or unreadable.
	unnamed map[string]bool
	// unknown are, per configuration path, the keys the walk reported as
	// unknown itself (a misspelt LogIsland key, logisland.go): validation's
	// "unknown property" of those keys is dropped.
	unknown map[string]map[string]bool
}

func newSuppressions() *suppressions {
	return &suppressions{paths: map[string]bool{}, whole: map[string]bool{}, keys: map[string]map[string]bool{}, unnamed: map[string]bool{}, unknown: map[string]map[string]bool{}}
}

func (s *suppressions) unknownValue(cpath, key string) {
	if s.keys[cpath] == nil {
		s.keys[cpath] = map[string]bool{}
	}
	s.keys[cpath][key] = true
}

func (s *suppressions) unknownKey(cpath, key string) {
	if s.unknown[cpath] == nil {
		s.unknown[cpath] = map[string]bool{}
	}
	s.unknown[cpath][key] = true
}

// drops reports whether a validation problem only repeats what the walk
// reported or could not know.
func (s *suppressions) drops(pr component.Problem) bool {
	switch {
	case s.paths[pr.Path], s.whole[pr.Path]:
		return true
	case s.unnamed[pr.Path] && strings.HasSuffix(pr.Msg, "has no name"):
		return true
	}
	if s.unknown[pr.Path][pr.Key] && strings.HasPrefix(pr.Msg, "unknown property") {
		return true
	}
	if keys := s.keys[pr.Path]; keys != nil {
		return pr.Key == "" || keys[pr.Key]
	}
	return false
}

// filter returns the problems that are not dropped.
func (s *suppressions) filter(ps component.Problems) component.Problems {
	out := ps[:0:0]
	for _, pr := range ps {
		if !s.drops(pr) {
			out = append(out, pr)
		}
	}
	return out
}
