package uaparse

import "strings"

// Options configures an Analyzer.
type Options struct {
	// CacheSize is the number of analysed user agents kept in the LRU
	// cache; 0 (or less) turns caching off.
	CacheSize int
}

// Analyzer analyses user-agent strings. It is safe for concurrent use.
type Analyzer struct {
	cache *lruCache
}

// New returns an Analyzer with the given options. The first call builds
// the analyzer's model (the tables and indexes all analyzers share), which
// takes about 20 ms and allocates 5.4 MB, 2.2 MB of which stay live; later
// calls find it built.
func New(opts Options) *Analyzer {
	ensureModel()
	return &Analyzer{cache: newLRUCache(opts.CacheSize)}
}

// Analyze returns the attributes of ua. It never fails and never panics: a
// hostile or broken string gets the Hacker or Unknown answers.
func (a *Analyzer) Analyze(ua string) Result {
	r, _ := a.AnalyzeCached(ua)
	return r
}

// AnalyzeCached is Analyze that also reports whether the answer came from
// the cache, for callers that count cache hits.
func (a *Analyzer) AnalyzeCached(ua string) (r Result, hit bool) {
	cacheable := a != nil && a.cache != nil && len(ua) <= maxLength
	if cacheable {
		if r, ok := a.cache.get(ua); ok {
			return r, true
		}
	}
	// A nil or zero Analyzer did not come through New, so the model may
	// not be built yet. The check is made outside analyzeSafe, so that a
	// panic while building (a malformed table) is not taken for a broken
	// user agent.
	ensureModel()
	r = analyzeSafe(ua)
	if cacheable {
		// Clone so the cache does not pin a larger buffer the caller's
		// string may be a slice of.
		a.cache.put(strings.Clone(ua), r)
	}
	return r, false
}

// analyzeSafe turns an unexpected runtime error in a rule into an Unknown
// answer: the analyzer must never take a stream processor down.
func analyzeSafe(ua string) (r Result) {
	defer func() {
		if recover() != nil {
			var u [numAttributes]string
			for i := range u {
				u[i] = Unknown
			}
			r = pack(&u)
		}
	}()
	return analyze(ua)
}
