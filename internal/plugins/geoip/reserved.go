package geoip

import "net/netip"

// reserved are the special-purpose networks of the IANA IPv4 and IPv6
// registries (RFC 6890 and its updates) that netip's predicates do not
// cover: shared address space, documentation, benchmarking, protocol
// assignments, the future-use block. No database locates them, and their
// presence in a log says nothing about a place.
var reserved = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
		"::/128", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// IsPrivateOrReserved reports whether addr is private, loopback,
// link-local, multicast, unspecified or in a reserved network: addresses
// that get no geo fields and no error.
func IsPrivateOrReserved(addr netip.Addr) bool {
	addr = addr.Unmap()
	if addr.IsPrivate() || addr.IsLoopback() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsMulticast() || addr.IsUnspecified() || addr.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
