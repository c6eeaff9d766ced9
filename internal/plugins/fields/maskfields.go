package fields

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"net/netip"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/weir-streams/weir/internal/component"
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
			"so that nothing unmasked passes; such values are counted in mask_fields_total{outcome=\"not_an_address\"}.",
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
	const name, help = "mask_fields_total", "Field values MaskFields masked, by outcome: hashed, truncated, not_an_address."
	return &MaskFields{
		hashFields: conf.List("hash.fields"), ipFields: conf.List("truncate.ip.fields"),
		key: []byte(conf.String("hash.key")), v4: int(v4), v6: int(v6),
		hashed: counter(env, name, help, "hashed"), truncated: counter(env, name, help, "truncated"),
		notAddr: counter(env, name, help, "not_an_address"),
	}, nil
}

// Process masks the fields of every record.
func (p *MaskFields) Process(_ context.Context, b *component.Batch) error {
	var mac hash.Hash
	var sum [sha256.Size]byte
	var hashed, truncated, notAddr int
	hashText := func(s string) string {
		if mac == nil {
			mac = hmac.New(sha256.New, p.key)
		}
		mac.Reset()
		mac.Write([]byte(s))
		return hex.EncodeToString(mac.Sum(sum[:0]))
	}
	for _, r := range b.Records {
		for _, f := range p.ipFields {
			s, ok := r.GetString(f)
			if !ok {
				continue
			}
			a, err := netip.ParseAddr(s)
			if err != nil {
				notAddr++
				if len(p.key) > 0 {
					r.SetString(f, hashText(s))
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
			r.SetString(f, pfx.Addr().String())
			truncated++
		}
		for _, f := range p.hashFields {
			v, ok := r.Get(f)
			if !ok || v.IsNull() {
				continue
			}
			r.SetString(f, hashText(v.Text()))
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
	return nil
}
