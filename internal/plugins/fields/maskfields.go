package fields

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// MaskFieldsName is the component identifier. LogIsland has no such
// processor (its EncryptField encrypts reversibly); the name follows the
// others.
const MaskFieldsName = "pkg.processor.MaskFields"

// MaskFieldsSpec declares MaskFields.
func MaskFieldsSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: MaskFieldsName,
		Summary: "Masks personal data (GDPR): replaces the fields of hash.fields with the hex HMAC-SHA256 of their text under hash.key " +
			"(the same input gives the same token, so records can still be joined and counted, but the value cannot be read back " +
			"without the key), and truncates the IP addresses of truncate.ip.fields to their network (IPv4 /24, IPv6 /48 by default: " +
			"83.149.9.216 becomes 83.149.9.0). A value of truncate.ip.fields that is not an address is hashed if hash.key is set, removed otherwise, " +
			"so that nothing unmasked passes; such values are counted in mask_fields_total{outcome=\"not_an_address\"}. " +
			"HMAC-SHA256 is the costly part (two SHA-256 blocks per value, three past 55 bytes): the values of a batch that must be hashed " +
			"are hashed together at its end, their tokens cut from one string, and a value " +
			"equal to the previous record's, or found in the table of recent tokens (hash.cache.size), is not hashed again.",
		Properties: []component.Property{
			{Key: "hash.fields", Description: "Comma-separated fields replaced by their keyed hash.", Validator: component.List(component.NonEmpty)},
			{Key: "hash.key", Description: "Secret key of the HMAC (at least 16 characters). Read it from a file with ${file:PATH}.", Sensitive: true,
				Validator: component.NewValidator("at least 16 characters", func(s string) error {
					if len(s) < 16 {
						return errors.New("the key must have at least 16 characters")
					}
					return nil
				})},
			{Key: "truncate.ip.fields", Description: "Comma-separated fields holding IP addresses to truncate to their network.", Example: "src_ip", Validator: component.List(component.NonEmpty)},
			{Key: "ipv4.prefix.length", Description: "Bits of an IPv4 address kept.", Default: "24", Validator: component.IntRange(0, 32)},
			{Key: "ipv6.prefix.length", Description: "Bits of an IPv6 address kept.", Default: "48", Validator: component.IntRange(0, 128)},
			{Key: "hash.cache.size", Description: "Recent tokens kept, keyed by the value they mask, so that a value seen again (a client's address, a popular path) " +
				"is not hashed again: a table of this many slots (rounded up to a power of two) of values up to 256 bytes, shared by the " +
				"partitions. It holds those values in clear in memory, as their records did. 0 turns it off.",
				Default: "4096", Validator: component.IntRange(0, 1<<20)},
		},
	}, newMaskFields)
}

// MaskFieldsConfig is MaskFields' configuration. The validators of the
// lists refuse an empty one and hash.key's a short one, so an empty value
// is an absent key.
type MaskFieldsConfig struct {
	HashFields []string `key:"hash.fields"`
	HashKey    string   `key:"hash.key"`
	IPFields   []string `key:"truncate.ip.fields"`
	IPv4Prefix int      `key:"ipv4.prefix.length"`
	IPv6Prefix int      `key:"ipv6.prefix.length"`
	CacheSize  int      `key:"hash.cache.size"`
}

// Validate asks for something to mask, and a key to hash with.
func (c *MaskFieldsConfig) Validate() error {
	var errs []error
	if len(c.HashFields) == 0 && len(c.IPFields) == 0 {
		errs = append(errs, errors.New(`give "hash.fields", "truncate.ip.fields" or both`))
	}
	if len(c.HashFields) > 0 && c.HashKey == "" {
		errs = append(errs, errors.New(`"hash.fields" needs "hash.key"`))
	}
	return errors.Join(errs...)
}

// MaskFields is the processor.
type MaskFields struct {
	hashFields, ipFields []string
	key                  []byte
	v4, v6               int
	hashed, truncated    prometheus.Counter
	notAddr              prometheus.Counter
	cacheHit, cacheMiss  prometheus.Counter

	// cache holds recent tokens by value; nil if hash.cache.size is 0.
	cache *maskCache

	// mac is the HMAC-SHA256 of key, its inner and outer states computed
	// once; it is never changed, so every partition uses it at once.
	mac *hmacHex

	// scratch holds *maskScratch: a batch's lists of values to hash,
	// reused by the batches (of any partition) that follow.
	scratch sync.Pool
}

// maskScratch is what one Process call hashes at its end: the values of
// hash.fields that neither the previous record nor the token cache
// answered (jobs, and their texts for hmacHex.hexMany), and the fields
// that take their tokens (refs). Hashing them together at the end of the
// batch lets the tokens that are not cached share one allocation.
type maskScratch struct {
	jobs  []maskJob
	texts []string
	out   [][hexSize]byte
	refs  []maskRef
	// seen maps a text to its job, with the token cache on: a value met
	// again later in the batch takes the job's token, as it would have
	// taken it from the cache had it been hashed at once.
	seen map[string]int
}

// maskJob is one value to hash and the token cache's slot for its token
// (nil if it is not to be cached).
type maskJob struct {
	text string
	slot *atomic.Pointer[maskEntry]
}

// maskRef is a field that takes the token of job; at is where the field
// was in r when it was read (a hint: SetHint checks it).
type maskRef struct {
	r     *record.Record
	field string
	job   int
	at    int
}

func newMaskFields(c *MaskFieldsConfig, env component.Env) (component.Processor, error) {
	const name, help = "mask_fields_total", "Field values MaskFields masked, by outcome: hashed, truncated, not_an_address."
	const cacheName, cacheHelp = "mask_fields_cache_total", "Values MaskFields hashed, by outcome: hit (the token was in hash.cache.size's table) or miss."
	p := &MaskFields{
		hashFields: c.HashFields, ipFields: c.IPFields,
		key: []byte(c.HashKey), v4: c.IPv4Prefix, v6: c.IPv6Prefix,
		hashed: counter(env, name, help, "hashed"), truncated: counter(env, name, help, "truncated"),
		notAddr:  counter(env, name, help, "not_an_address"),
		cacheHit: counter(env, cacheName, cacheHelp, "hit"), cacheMiss: counter(env, cacheName, cacheHelp, "miss"),
	}
	if len(p.key) > 0 {
		p.cache = newMaskCache(c.CacheSize)
	}
	p.mac = newHMACHex(p.key)
	p.scratch.New = func() any { return new(maskScratch) }
	return p, nil
}

// batchHasher computes the tokens of one Process call and counts its
// lookups in the token cache.
type batchHasher struct {
	p            *MaskFields
	hits, misses int
}

// lookup looks s up in the token cache. It returns s's token if the cache
// holds it; otherwise the slot that is to hold it, or nil if s is not to
// be cached (no cache, or a value too long). It counts nothing.
func (h *batchHasher) lookup(s string) (token string, slot *atomic.Pointer[maskEntry], ok bool) {
	if h.p.cache == nil || len(s) > maskCacheMaxValue {
		return "", nil, false
	}
	slot, token, ok = h.p.cache.lookup(s)
	return token, slot, ok
}

// count counts a lookup of s that found its token (hit) or did not.
func (h *batchHasher) count(s string, hit bool) {
	switch {
	case hit:
		h.hits++
	case h.p.cache != nil && len(s) <= maskCacheMaxValue:
		h.misses++
	}
}

// token returns the token of s, hashed at once if the cache does not
// hold it (for the rare values of truncate.ip.fields that are not
// addresses; hash.fields' values wait for the end of the batch).
func (h *batchHasher) token(s string) string {
	token, slot, ok := h.lookup(s)
	h.count(s, ok)
	if ok {
		return token
	}
	var out [hexSize]byte
	return keep(slot, s, h.p.mac.appendHex(out[:0], s))
}

// keep returns hex as a string (the one allocation of a token). With a
// slot of the token cache, the same allocation holds a copy of text too,
// and the slot is given the entry.
func keep(slot *atomic.Pointer[maskEntry], text string, hex []byte) string {
	var b strings.Builder
	if slot == nil {
		b.Grow(len(hex))
		b.Write(hex)
		return b.String()
	}
	b.Grow(len(hex) + len(text))
	b.Write(hex)
	b.WriteString(text)
	both := b.String()
	token := both[:len(hex)]
	slot.Store(&maskEntry{in: both[len(hex):], token: token})
	return token
}

// memo is the last value a field was masked from, and its mask: access
// logs repeat a client's address (and a user name) on consecutive
// records, which then take the previous answer, without a hash or an
// allocation. For hash.fields the mask may still be to compute: then
// pending is set and job is its index in the batch's maskScratch.
type memo struct {
	in, out string
	ok      bool
	pending bool
	job     int
	// at is where the field was in the previous record, where the next
	// record's is looked for first (records of a stream share their field
	// order: see record.GetHint).
	at int
}

func (m *memo) get(in string) (string, bool) { return m.out, m.ok && !m.pending && m.in == in }

func (m *memo) put(in, out string) { *m = memo{in: in, out: out, ok: true, at: m.at} }

// hashJobs hashes the batch's pending values together, sets the fields
// that wait for them, and empties sc (keeping its arrays, but no record
// or text).
func (p *MaskFields) hashJobs(sc *maskScratch) {
	uncached := 0
	for _, job := range sc.jobs {
		if job.slot == nil {
			uncached++
		}
	}
	if n := len(sc.jobs); n > 0 {
		// The tokens that the cache does not keep are cut from one string:
		// one allocation per batch instead of one per value (an allocation
		// costs about what the hashing does). A record that outlives its
		// batch keeps those tokens of the batch alive with its own. A
		// cached token has its own allocation, with its text: the cache
		// must not keep a batch's memory.
		const size = hexSize
		var out [][size]byte
		if uncached == n {
			// No token is cached (the cache is off, or every value was too
			// long for it): the hex is written straight into the memory of
			// that string, sparing a copy of every token (83 instructions a
			// token, BENCHMARKS.md).
			out = make([][size]byte, n)
		} else {
			if cap(sc.out) < n {
				sc.out = make([][size]byte, n)
			}
			out = sc.out[:n]
		}
		p.mac.hexMany(sc.texts, out)
		var all string
		switch {
		case uncached == n:
			// Nothing writes to out after hexMany: unsafe.String is sound.
			all = unsafe.String(&out[0][0], n*size)
		case uncached > 0:
			var b strings.Builder
			b.Grow(uncached * size)
			for j, job := range sc.jobs {
				if job.slot == nil {
					b.Write(out[j][:])
				}
			}
			all = b.String()
		}
		// texts become the tokens: job j's token is texts[j], the
		// uncached ones in job order from all.
		for j, job := range sc.jobs {
			if job.slot == nil {
				sc.texts[j], all = all[:size], all[size:]
				continue
			}
			sc.texts[j] = keep(job.slot, job.text, out[j][:])
		}
		for _, ref := range sc.refs {
			ref.r.SetHint(ref.field, record.StringValue(sc.texts[ref.job]), ref.at)
		}
	}
	clear(sc.jobs)
	clear(sc.texts)
	clear(sc.refs)
	clear(sc.seen)
	sc.jobs, sc.texts, sc.refs = sc.jobs[:0], sc.texts[:0], sc.refs[:0]
}

// Process masks the fields of every record.
func (p *MaskFields) Process(_ context.Context, b *component.Batch) error {
	var hashed, truncated, notAddr int
	h := batchHasher{p: p}
	// One memo per field of the batch, IP fields first; a batch's memos
	// live only as long as the batch, so they keep no record alive.
	var memoStore [4]memo
	var memos []memo
	if n := len(p.ipFields) + len(p.hashFields); n > len(memoStore) {
		memos = make([]memo, n)
	} else {
		memos = memoStore[:n]
	}
	var sc *maskScratch
	if len(p.hashFields) > 0 {
		sc = p.scratch.Get().(*maskScratch)
	}
	for _, r := range b.Records {
		for i, f := range p.ipFields {
			s, ok := r.GetString(f)
			if !ok {
				continue
			}
			m := &memos[i]
			if out, ok := m.get(s); ok {
				r.SetString(f, out)
				truncated++
				continue
			}
			a, err := netip.ParseAddr(s)
			if err != nil {
				notAddr++
				if len(p.key) > 0 {
					r.SetString(f, h.token(s))
				} else {
					r.Remove(f)
				}
				continue
			}
			bits := p.v6
			if a.Is4() || a.Is4In6() {
				a, bits = a.Unmap(), p.v4
			}
			pfx, _ := a.WithZone("").Prefix(bits)
			out := pfx.Addr().String()
			m.put(s, out)
			r.SetString(f, out)
			truncated++
		}
		for i, f := range p.hashFields {
			m := &memos[len(p.ipFields)+i]
			v, at, ok := r.GetHint(f, m.at)
			if !ok || v.IsNull() {
				continue
			}
			m.at = at
			s := textOf(v)
			hashed++
			if m.ok && m.in == s {
				if m.pending {
					sc.refs = append(sc.refs, maskRef{r: r, field: f, job: m.job, at: at})
				} else {
					r.SetHint(f, record.StringValue(m.out), at)
				}
				continue
			}
			token, slot, ok := h.lookup(s)
			if !ok && slot != nil {
				var job int
				if job, ok = sc.seen[s]; ok {
					h.count(s, true)
					sc.refs = append(sc.refs, maskRef{r: r, field: f, job: job, at: at})
					*m = memo{in: s, ok: true, pending: true, job: job, at: at}
					continue
				}
			}
			h.count(s, ok)
			if ok {
				m.put(s, token)
				r.SetHint(f, record.StringValue(token), at)
				continue
			}
			job := len(sc.jobs)
			if slot != nil {
				if sc.seen == nil {
					sc.seen = make(map[string]int)
				}
				sc.seen[s] = job
			}
			sc.jobs = append(sc.jobs, maskJob{text: s, slot: slot})
			sc.texts = append(sc.texts, s)
			sc.refs = append(sc.refs, maskRef{r: r, field: f, job: job, at: at})
			*m = memo{in: s, ok: true, pending: true, job: job, at: at}
		}
	}
	if sc != nil {
		p.hashJobs(sc)
		p.scratch.Put(sc)
	}
	count(p.hashed, hashed)
	count(p.truncated, truncated)
	count(p.notAddr, notAddr)
	count(p.cacheHit, h.hits)
	count(p.cacheMiss, h.misses)
	return nil
}
