package dns

// CannedAnswer returns the value IpToFqdn keeps in its cache, under
// CacheSpace and the address as written in the record, for an address whose
// verified name is fqdn (without the trailing dot), or that has no name when
// fqdn is empty. A cache service that returns it for an address makes
// IpToFqdn apply that answer without asking DNS: this is how `weir test`
// gives canned reverse-DNS answers (internal/jobtest) through the cache
// service IpToFqdn already uses, without a change to the processor.
func CannedAnswer(fqdn string) any {
	if fqdn == "" {
		return entry{outcome: notFound}
	}
	return entry{fqdn: fqdn, outcome: resolved}
}
