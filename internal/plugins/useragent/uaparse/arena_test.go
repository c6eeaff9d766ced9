package uaparse

import (
	"strings"
	"testing"
)

// TestArena checks the arena's strings: equal to the plain expressions they
// replace, unchanged by later writes to the arena, and still right when the
// arena is full (a new string) or absent (p nil, or parse's state).
func TestArena(t *testing.T) {
	p := parsePooled("Mozilla/5.0 (Linux; Android 14; SM-S918B)")
	defer releaseParsed(p)
	a := p.concat("Samsung", " ", "SM-S918B")
	b := p.lower("YandexBot/3.0")
	c := p.keep([]byte("Phone "))
	long := strings.Repeat("Ab", len(p.arenaBuf)) // more than the arena holds
	d := p.concat(long, "!")
	e := p.lower(long)
	for _, tc := range []struct{ got, want string }{
		{a, "Samsung SM-S918B"}, {b, "yandexbot/3.0"}, {c, "Phone "},
		{d, long + "!"}, {e, strings.ToLower(long)},
		{p.lower("already lower"), "already lower"}, {p.concat("", ""), ""},
		{(*parsed)(nil).concat("a", "b"), "ab"}, {(*parsed)(nil).lower("AB"), "ab"}, {(*parsed)(nil).keep([]byte("x")), "x"},
		{normalizeNameIn(p, "galaxy_tab s8"), normalizeName("galaxy_tab s8")},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if len(p.arena) == 0 || len(p.arena) > len(p.arenaBuf) {
		t.Errorf("arena holds %d bytes: the short strings were not put in it, or it grew past its buffer", len(p.arena))
	}
	q := parse("Mozilla/5.0")
	defer releaseParsed(q)
	if q.arena != nil {
		t.Error("parse's state has an arena: its strings must outlive releaseParsed")
	}
}

// TestIndexLower compares indexLower and hasUpperASCII with the copies they
// replace, on the DEV user agents and words of them.
func TestIndexLower(t *testing.T) {
	for _, c := range loadDev(t) {
		ua := c.UA
		for _, sub := range []string{" http", "mozilla", "bot", "x", asciiLower(ua[len(ua)/2:])} {
			if got, want := indexLower(ua, sub), strings.Index(asciiLower(ua), sub); got != want {
				t.Fatalf("indexLower(%q, %q) = %d, want %d", ua, sub, got, want)
			}
		}
		if got, want := hasUpperASCII(ua), asciiLower(ua) != ua; got != want {
			t.Fatalf("hasUpperASCII(%q) = %v, want %v", ua, got, want)
		}
	}
}
