package fields

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/weir-streams/weir/internal/component"
	"github.com/weir-streams/weir/internal/record"
)

// ModifyIdName is the component identifier.
const ModifyIdName = "pkg.processor.ModifyId"

// ErrFormat is the error type of a record whose id could not be built.
const ErrFormat = "string_format_error"

// hashAlgorithms append the digest of data to dst. They call the one-shot
// Sum functions: no hash.Hash to allocate, reset or reach through an
// interface for each record.
var hashAlgorithms = map[string]func(dst, data []byte) []byte{
	"MD5":     func(dst, data []byte) []byte { s := md5.Sum(data); return append(dst, s[:]...) },
	"SHA-1":   func(dst, data []byte) []byte { s := sha1.Sum(data); return append(dst, s[:]...) },
	"SHA-224": func(dst, data []byte) []byte { s := sha256.Sum224(data); return append(dst, s[:]...) },
	// SHA-256, the default, goes through ModifyId.processSHA256 for
	// hashFields and typetimehash; this entry serves the generic path.
	"SHA-256": func(dst, data []byte) []byte { s := sha256.Sum256(data); return append(dst, s[:]...) },
	"SHA-384": func(dst, data []byte) []byte { s := sha512.Sum384(data); return append(dst, s[:]...) },
	"SHA-512": func(dst, data []byte) []byte { s := sha512.Sum512(data); return append(dst, s[:]...) },
}

// ModifyIdSpec declares ModifyId.
func ModifyIdSpec() component.Spec {
	return component.ProcessorSpec(component.Spec{
		Name: ModifyIdName,
		Summary: "Replaces the record id (and record_id). Strategies: randomUuid; hashFields (hex digest of the text of fields.to.hash, concatenated); " +
			"fromFields (java.formatter.string filled with fields.to.hash, e.g. %2$s-%1$s); typetimehash (record_type-record_time-hex digest). " +
			"A record id derived from the input (the default) already makes replays idempotent: change it only to key records by their content. " +
			"The digest is much of hashFields' cost: with SHA-256 (the default) a batch's texts are hashed one after the other " +
			"and its ids cut from one string.",
		Properties: []component.Property{
			{Key: "id.generation.strategy", Description: "randomUuid, hashFields, fromFields or typetimehash.", Default: "randomUuid",
				Validator: component.Enum("randomUuid", "hashFields", "fromFields", "typetimehash")},
			{Key: "fields.to.hash", Description: "Comma-separated fields used by hashFields, fromFields and typetimehash.", Default: record.FieldValue, Validator: component.List(component.NonEmpty)},
			{Key: "hash.algorithm", Description: "Digest of hashFields and typetimehash: MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512.", Default: "SHA-256",
				Validator: component.Enum("MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512")},
			{Key: "hash.charset", Description: "Charset the text is encoded in before it is hashed: UTF-8, or US-ASCII, where each character outside ASCII is hashed as '?', as Java's String.getBytes does for LogIsland.", Default: "UTF-8", Validator: component.Enum("UTF-8", "utf-8", "UTF8", "US-ASCII", "us-ascii", "ASCII")},
			{Key: "java.formatter.string", Description: "Format of fromFields, in Java Formatter syntax limited to %s, %d and %N$s / %N$d (the N-th field of fields.to.hash) and %%."},
			{Key: "language.tag", Description: "Locale of fromFields in LogIsland; accepted and ignored (numbers are formatted without grouping).", Default: "en"},
		},
	}, newModifyId)
}

// ModifyIdConfig is ModifyId's configuration.
type ModifyIdConfig struct {
	Strategy  string   `key:"id.generation.strategy"`
	Fields    []string `key:"fields.to.hash"`
	Algorithm string   `key:"hash.algorithm"`
	Charset   string   `key:"hash.charset"`
	Format    string   `key:"java.formatter.string"`
	FormatSet bool     `key:"java.formatter.string,set"`
	// Numbers are formatted without grouping, whatever the locale.
	_      struct{} `key:"language.tag,ignored"`
	format []formatPart
}

// Validate parses the format of fromFields.
func (c *ModifyIdConfig) Validate() error {
	if c.Strategy != "fromFields" {
		return nil
	}
	if !c.FormatSet {
		return fmt.Errorf(`"java.formatter.string" must be set when strategy is fromFields`)
	}
	var err error
	c.format, err = parseJavaFormat(c.Format, len(c.Fields))
	return err
}

// ModifyId is the processor.
type ModifyId struct {
	strategy string
	fields   []string
	digest   func(dst, data []byte) []byte
	sha256   bool // hash.algorithm is SHA-256: see processSHA256
	ascii    bool // hash.charset is US-ASCII: see toASCII
	scratch  sync.Pool
	format   []formatPart
	fmtSrc   string
}

func newModifyId(c *ModifyIdConfig, _ component.Env) (component.Processor, error) {
	p := &ModifyId{
		strategy: c.Strategy,
		fields:   c.Fields,
		digest:   hashAlgorithms[c.Algorithm],
		sha256:   c.Algorithm == "SHA-256",
		ascii:    strings.Contains(strings.ToUpper(c.Charset), "ASCII"),
		format:   c.format,
	}
	p.scratch.New = func() any { return new(modifyIdScratch) }
	if p.strategy == "fromFields" {
		p.fmtSrc = c.Format
	}
	return p, nil
}

// Process sets the id of every record. The text to hash and the id are
// built in buffers reused across the batch; the id string is the one
// allocation per record (per batch with SHA-256: see processSHA256).
func (p *ModifyId) Process(_ context.Context, b *component.Batch) error {
	if p.strategy == "randomUuid" {
		p.processRandomUUID(b.Records)
		return nil
	}
	if p.sha256 && (p.strategy == "hashFields" || p.strategy == "typetimehash") {
		p.processSHA256(b.Records)
		return nil
	}
	var data, id []byte
	var sum [sha512.Size]byte
	for _, r := range b.Records {
		switch p.strategy {
		case "hashFields", "typetimehash":
			data = p.appendFields(data[:0], r)
			id = hex.AppendEncode(p.idPrefix(id[:0], r), p.digest(sum[:0], data))
			r.SetID(string(id))
		case "fromFields":
			var err error
			if id, err = p.formatID(id[:0], r); err != nil {
				r.AddError(ErrFormat, err.Error())
				continue
			}
			r.SetID(string(id))
		}
	}
	return nil
}

// processSHA256 sets the ids of hashFields and typetimehash with SHA-256,
// the default algorithm: the batch's texts are built first, in one
// buffer, and hashed one after the other, then the ids set, cut from one
// string. SHA-256 of an access log's address, time and path is two
// blocks, most of a record's cost.
func (p *ModifyId) processSHA256(recs []*record.Record) {
	sc := p.scratch.Get().(*modifyIdScratch)
	defer p.scratch.Put(sc)
	sc.data, sc.ends = sc.data[:0], sc.ends[:0]
	var hints fieldHints
	for _, r := range recs {
		from := len(sc.data)
		for i, f := range p.fields {
			if v, ok := hints.get(r, i, f); ok {
				sc.data = appendText(sc.data, v)
			}
		}
		if p.ascii {
			sc.data = toASCII(sc.data, from)
		}
		sc.ends = append(sc.ends, len(sc.data))
	}
	// The messages are cut only now: data may have moved while it grew.
	sc.msgs = sc.msgs[:0]
	start := 0
	for _, end := range sc.ends {
		sc.msgs = append(sc.msgs, sc.data[start:end:end])
		start = end
	}
	if p.strategy == "hashFields" && len(recs) > 0 {
		// The ids are the digests' hex and nothing else: the hex is
		// written straight into the memory the ids' string is made of,
		// which nothing changes after hexSum256Many (so unsafe.String is
		// sound), sparing a copy of every id.
		const n = hexSize
		buf := make([][n]byte, len(recs))
		hexSum256Many(sc.msgs, buf)
		all := unsafe.String(&buf[0][0], len(buf)*n)
		for i, r := range recs {
			r.SetID(all[i*n : (i+1)*n])
		}
		clear(sc.msgs)
		return
	}
	if cap(sc.out) < len(recs) {
		sc.out = make([][hexSize]byte, len(recs))
	}
	out := sc.out[:len(recs)]
	hexSum256Many(sc.msgs, out)
	// The batch's ids are cut from one string: one allocation per batch
	// instead of one per record (an allocation cost as much as the
	// hashing). A record that outlives its batch keeps the batch's ids
	// alive with its own, 64 bytes or so per record of the batch.
	// typetimehash's prefixes (type-time-) go one after the other in
	// sc.data first, which the texts no longer need.
	sc.data, sc.ends = sc.data[:0], sc.ends[:0]
	if p.strategy == "typetimehash" {
		for _, r := range recs {
			sc.data = p.idPrefix(sc.data, r)
			sc.ends = append(sc.ends, len(sc.data))
		}
	}
	var ids strings.Builder
	ids.Grow(len(sc.data) + len(recs)*hexSize)
	prev := 0
	for i := range recs {
		if len(sc.ends) > 0 {
			ids.Write(sc.data[prev:sc.ends[i]])
			prev = sc.ends[i]
		}
		ids.Write(out[i][:])
	}
	all := ids.String()
	start, prev = 0, 0
	for i, r := range recs {
		n := hexSize
		if len(sc.ends) > 0 {
			n += sc.ends[i] - prev
			prev = sc.ends[i]
		}
		r.SetID(all[start : start+n])
		start += n
	}
	clear(sc.msgs) // no batch's text kept past the batch
}

// uuidLen is the length of a UUID's text: 32 hex digits and 4 dashes.
const uuidLen = 36

// processRandomUUID sets a random (version 4) UUID as the id of every
// record, as java.util.UUID.randomUUID does for LogIsland. The random
// bytes come from the scratch's ChaCha8 generator, a cryptographically
// strong one seeded from crypto/rand (newChaCha8), as java.util.UUID's
// come from SecureRandom; the batch's ids are cut from one string, written
// in place. uuid.NewString per record cost two allocations and a read of
// the system's random source, about 220 ns of a record's time; reading
// crypto/rand once a batch instead still cost 40 ns a record, ChaCha8 about
// a tenth of that (BENCHMARKS.md). As with processSHA256's ids, a record
// that outlives its batch keeps the batch's ids alive with its own (36
// bytes per record of the batch).
func (p *ModifyId) processRandomUUID(recs []*record.Record) {
	if len(recs) == 0 {
		return
	}
	sc := p.scratch.Get().(*modifyIdScratch)
	defer p.scratch.Put(sc)
	if sc.rand == nil {
		sc.rand = newChaCha8()
	}
	sc.data = append(sc.data[:0], make([]byte, 16*len(recs))...)
	_, _ = sc.rand.Read(sc.data) // ChaCha8.Read never fails
	buf := make([]byte, uuidLen*len(recs))
	for i := range recs {
		formatUUIDv4(buf[i*uuidLen:(i+1)*uuidLen], sc.data[i*16:(i+1)*16])
	}
	// Nothing writes buf after this point, so the string may share it.
	all := unsafe.String(&buf[0], len(buf))
	for i, r := range recs {
		r.SetID(all[i*uuidLen : (i+1)*uuidLen])
	}
}

// newChaCha8 returns a ChaCha8 generator seeded from crypto/rand. A
// scratch holds one, so no two goroutines share a generator; a scratch the
// pool drops takes its generator with it, and the next one is seeded anew.
func newChaCha8() *mrand.ChaCha8 {
	var seed [32]byte
	// crypto/rand.Read does not fail: it crashes the program when the
	// system's random source does (Go 1.24 and later).
	_, _ = rand.Read(seed[:])
	return mrand.NewChaCha8(seed)
}

// formatUUIDv4 writes the UUID of 16 random bytes, with the version (4)
// and variant (RFC 9562) bits set, as lower-case text into dst[:36].
func formatUUIDv4(dst, b []byte) {
	const hexDigits = "0123456789abcdef"
	_ = dst[uuidLen-1]
	_ = b[15]
	j := 0
	for i := 0; i < 16; i++ {
		c := b[i]
		switch i {
		case 4, 6, 8, 10:
			dst[j] = '-'
			j++
		}
		switch i {
		case 6:
			c = c&0x0f | 0x40
		case 8:
			c = c&0x3f | 0x80
		}
		dst[j], dst[j+1] = hexDigits[c>>4], hexDigits[c&0x0f]
		j += 2
	}
}

// modifyIdScratch holds processSHA256's buffers, reused by the batches
// (of any partition) that follow: the texts to hash one after the other
// in data, where each ends, the texts cut from data and their digests;
// and processRandomUUID's generator, with data holding a batch's random bytes.
type modifyIdScratch struct {
	data []byte
	ends []int
	msgs [][]byte
	out  [][hexSize]byte
	rand *mrand.ChaCha8 // processRandomUUID's generator
}

// appendFields appends the text of fields.to.hash, concatenated: what
// hashFields and typetimehash hash.
func (p *ModifyId) appendFields(dst []byte, r *record.Record) []byte {
	from := len(dst)
	for _, f := range p.fields {
		if v, ok := r.Get(f); ok {
			dst = appendText(dst, v)
		}
	}
	if p.ascii {
		dst = toASCII(dst, from)
	}
	return dst
}

// toASCII rewrites the UTF-8 text of b[from:] in place as US-ASCII: each
// character outside ASCII (and each byte that is not UTF-8) becomes one
// '?', as Java's String.getBytes(US_ASCII) encodes it, so hashFields
// with hash.charset US-ASCII gives LogIsland's ids. The text only shrinks.
func toASCII(b []byte, from int) []byte {
	w := from
	for i := from; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			b[w] = c
			i++
		} else {
			_, n := utf8.DecodeRune(b[i:])
			b[w] = '?'
			i += n
		}
		w++
	}
	return b[:w]
}

// idPrefix appends what comes before the digest in an id: nothing for
// hashFields, record_type-record_time- for typetimehash.
func (p *ModifyId) idPrefix(dst []byte, r *record.Record) []byte {
	if p.strategy != "typetimehash" {
		return dst
	}
	dst = append(dst, r.Type...)
	dst = append(dst, '-')
	if v, ok := r.Get(record.FieldTime); ok {
		dst = appendText(dst, v)
	}
	return append(dst, '-')
}

// appendText appends the text of a value, as Value.Text renders it,
// without the string Text allocates for a number.
func appendText(dst []byte, v record.Value) []byte {
	switch v.Kind() {
	case record.String:
		s, _ := v.AsString()
		return append(dst, s...)
	case record.Int:
		n, _ := v.AsInt()
		return strconv.AppendInt(dst, n, 10)
	case record.Float:
		f, _ := v.AsFloat()
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	case record.Bool:
		b, _ := v.AsBool()
		return strconv.AppendBool(dst, b)
	case record.Bytes:
		b, _ := v.AsBytes()
		return append(dst, b...)
	case record.Array, record.Map:
		return record.AppendJSON(dst, v)
	}
	return dst
}

// formatPart is a literal (arg < 0) or the text of argument arg.
type formatPart struct {
	lit string
	arg int
}

// parseJavaFormat reads the subset of java.util.Formatter that ids use.
func parseJavaFormat(f string, nargs int) ([]formatPart, error) {
	var parts []formatPart
	next := 0
	var lit strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return nil, fmt.Errorf("format ends with %%")
		}
		if f[i] == '%' {
			lit.WriteByte('%')
			continue
		}
		arg := -1
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j < len(f) && f[j] == '$' && j > i {
			n, _ := strconv.Atoi(f[i:j])
			arg = n - 1
			i = j + 1
		}
		if i >= len(f) || (f[i] != 's' && f[i] != 'd') {
			return nil, fmt.Errorf("unsupported conversion at %d: only %%s, %%d and %%N$s are supported", i)
		}
		if arg < 0 {
			arg = next
			next++
		}
		if arg >= nargs {
			return nil, fmt.Errorf("format refers to field %d, but fields.to.hash names %d", arg+1, nargs)
		}
		parts = append(parts, formatPart{lit: lit.String(), arg: -1})
		lit.Reset()
		parts = append(parts, formatPart{arg: arg})
	}
	parts = append(parts, formatPart{lit: lit.String(), arg: -1})
	return parts, nil
}

// formatID appends the id of fromFields to dst.
func (p *ModifyId) formatID(dst []byte, r *record.Record) ([]byte, error) {
	for _, part := range p.format {
		if part.arg < 0 {
			dst = append(dst, part.lit...)
			continue
		}
		v, ok := r.Get(p.fields[part.arg])
		if !ok {
			return dst, fmt.Errorf("could not build id with format %q: field %q does not exist", p.fmtSrc, p.fields[part.arg])
		}
		dst = appendText(dst, v)
	}
	return dst, nil
}
