package fields

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/sha256block"
)

// MaskFieldsName is the component identifier. LogIsland has no such
// processor (its EncryptField encrypts reversibly); the name follows the
// others.
const MaskFieldsName = "pkg.processor.MaskFields"

// MaskFieldsSpec declares MaskFields.
func MaskFieldsSpec() component.Spec {
	return component.Spec{
		Name: MaskFieldsName,
		Kind: component.KindProcessor,
		Summary: "Masks personal data (GDPR): replaces the fields of hash.fields with the hex HMAC-SHA256 of their text under hash.key " +
			"(the same input gives the same token, so records can still be joined and counted, but the value cannot be read back " +
			"without the key), and truncates the IP addresses of truncate.ip.fields to their network (IPv4 /24, IPv6 /48 by default: " +
			"83.149.9.216 becomes 83.149.9.0). A value of truncate.ip.fields that is not an address is hashed if hash.key is set, removed otherwise, " +
			"so that nothing unmasked passes; such values are counted in mask_fields_total{outcome=\"not_an_address\"}. " +
			"HMAC-SHA256 is the costly part: one or two hundred nanoseconds per value in Go's standard library even with SHA instructions " +
			"(two SHA-256 blocks, three past 55 bytes), so a value equal to the previous record's, or found in the table of recent tokens " +
			"(hash.cache.size), is not hashed again.",
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
		Check:        checkMask,
		NewProcessor: newMaskFields,
	}
}

func checkMask(conf component.Config) error {
	var errs []error
	if !conf.IsSet("hash.fields") && !conf.IsSet("truncate.ip.fields") {
		errs = append(errs, errors.New(`give "hash.fields", "truncate.ip.fields" or both`))
	}
	if conf.IsSet("hash.fields") && !conf.IsSet("hash.key") {
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
	mac *sha256block.HMAC
}

func newMaskFields(conf component.Config, env component.Env) (component.Processor, error) {
	if err := checkMask(conf); err != nil {
		return nil, err
	}
	v4, err := conf.Int("ipv4.prefix.length")
	if err != nil {
		return nil, err
	}
	v6, err := conf.Int("ipv6.prefix.length")
	if err != nil {
		return nil, err
	}
	cacheSize, err := conf.Int("hash.cache.size")
	if err != nil {
		return nil, err
	}
	const name, help = "mask_fields_total", "Field values MaskFields masked, by outcome: hashed, truncated, not_an_address."
	const cacheName, cacheHelp = "mask_fields_cache_total", "Values MaskFields hashed, by outcome: hit (the token was in hash.cache.size's table) or miss."
	p := &MaskFields{
		hashFields: conf.List("hash.fields"), ipFields: conf.List("truncate.ip.fields"),
		key: []byte(conf.String("hash.key")), v4: int(v4), v6: int(v6),
		hashed: counter(env, name, help, "hashed"), truncated: counter(env, name, help, "truncated"),
		notAddr:  counter(env, name, help, "not_an_address"),
		cacheHit: counter(env, cacheName, cacheHelp, "hit"), cacheMiss: counter(env, cacheName, cacheHelp, "miss"),
	}
	if len(p.key) > 0 {
		p.cache = newMaskCache(int(cacheSize))
	}
	p.mac = sha256block.NewHMAC(p.key)
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

// token returns the token of s. If s must be hashed and next (the same
// field's value in the next record, if it has one: hasNext) must be too,
// both are hashed side by side (sha256block's pair, which the CPU
// overlaps) and next's token is left in ahead for the next record.
func (h *batchHasher) token(s, next string, hasNext bool, ahead *memo) string {
	token, slot, ok := h.lookup(s)
	h.count(s, ok)
	if ok {
		return token
	}
	var out [2 * sha256block.Size]byte
	if hasNext && next != s {
		if _, nextSlot, ok := h.lookup(next); !ok {
			// next's lookup is counted when the next record takes its
			// token from ahead.
			var nextOut [2 * sha256block.Size]byte
			hex, nextHex := h.p.mac.AppendHexPair(out[:0], nextOut[:0], s, next)
			ahead.put(next, keep(nextSlot, next, nextHex))
			return keep(slot, s, hex)
		}
	}
	return keep(slot, s, h.p.mac.AppendHex(out[:0], s))
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
// allocation.
type memo struct {
	in, out string
	ok      bool
}

func (m *memo) get(in string) (string, bool) { return m.out, m.ok && m.in == in }

func (m *memo) put(in, out string) { *m = memo{in: in, out: out, ok: true} }

// Process masks the fields of every record.
func (p *MaskFields) Process(_ context.Context, b *component.Batch) error {
	var hashed, truncated, notAddr int
	h := batchHasher{p: p}
	// One memo per field of the batch, IP fields first, then one "ahead"
	// memo per hashed field (the next record's token, computed with this
	// one's); a batch's memos live only as long as the batch, so they keep
	// no record alive.
	var memoStore [6]memo
	var memos []memo
	if n := len(p.ipFields) + 2*len(p.hashFields); n > len(memoStore) {
		memos = make([]memo, n)
	} else {
		memos = memoStore[:n]
	}
	aheads := memos[len(p.ipFields)+len(p.hashFields):]
	for ri, r := range b.Records {
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
					r.SetString(f, h.token(s, "", false, nil))
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
			v, ok := r.Get(f)
			if !ok || v.IsNull() {
				continue
			}
			s, isString := v.AsString()
			if !isString {
				s = v.Text()
			}
			m := &memos[len(p.ipFields)+i]
			out, ok := m.get(s)
			if !ok {
				if out, ok = aheads[i].get(s); ok {
					h.count(s, false) // looked up, and missed, with the previous record's
				} else {
					var next string
					hasNext := false
					if ri+1 < len(b.Records) {
						// Only a string is worth the peek: another kind's
						// text is built (and allocated) for its own record.
						if v, ok := b.Records[ri+1].Get(f); ok {
							next, hasNext = v.AsString()
						}
					}
					out = h.token(s, next, hasNext, &aheads[i])
				}
				m.put(s, out)
			}
			r.SetString(f, out)
			hashed++
		}
	}
	if hashed > 0 {
		p.hashed.Add(float64(hashed))
	}
	if truncated > 0 {
		p.truncated.Add(float64(truncated))
	}
	if notAddr > 0 {
		p.notAddr.Add(float64(notAddr))
	}
	if h.hits > 0 {
		p.cacheHit.Add(float64(h.hits))
	}
	if h.misses > 0 {
		p.cacheMiss.Add(float64(h.misses))
	}
	return nil
}
