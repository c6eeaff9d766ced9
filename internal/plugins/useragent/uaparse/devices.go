package uaparse

import "strings"

// gameConsole names the model of a Nintendo or Sony console from the
// comment entry that announces it ("Nintendo Switch", "Nintendo 3DS",
// "PlayStation 5 2.03", "PlayStation 4/11.52", "PLAYSTATION 3", "PS2",
// "PSP PlayStation Portable") and, for Sony, the system that model runs.
// Both makers put the console's own name in the user agent, so the model
// is read rather than looked up.
func (s *state) gameConsole() {
	p := s.p
	for _, e := range p.entries {
		lt := p.ltext(e)
		t := p.text(e)
		switch {
		case strings.HasPrefix(lt, "nintendo "):
			model := strings.TrimSpace(t[len("nintendo "):])
			if model == "" {
				continue
			}
			s.devClass, s.devBrand, s.devName = "Game Console", "Nintendo", "Nintendo "+normalizeName(model)
			if handheldNintendo(asciiLower(model)) {
				s.devClass = "Handheld Game Console"
			}
			// Nintendo's consoles have no version of their system in the
			// user agent; the console itself is the "version" of the
			// Nintendo platform.
			s.os = osInfo{name: "Nintendo", version: "Nintendo " + model, class: "Game Console", cpu: s.os.cpu}
			return
		case lt == "ps2" || strings.HasPrefix(lt, "ps2 "):
			s.devClass, s.devBrand, s.devName = "Game Console", "Sony", "Sony PlayStation 2"
			return
		case strings.HasPrefix(lt, "psp"):
			s.devClass, s.devBrand, s.devName = "Handheld Game Console", "Sony", "Sony PlayStation Portable"
			return
		case strings.HasPrefix(lt, "playstation"):
			rest := strings.TrimLeft(t[len("playstation"):], " /")
			if rest == "" {
				continue // "(PlayStation; PlayStation 4/11.52)": the model follows
			}
			model, version, _ := strings.Cut(rest, " ")
			if m, v, ok := strings.Cut(model, "/"); ok {
				model, version = m, v
			}
			version = strings.TrimSpace(version)
			s.devClass, s.devBrand, s.devName = "Game Console", "Sony", "Sony PlayStation "+normalizeName(model)
			s.sonyConsoleOS(asciiLower(model), version)
			return
		}
	}
}

// handheldNintendo reports Nintendo's portable consoles (the DS family and
// the 3DS family), which Yauaa classes apart from the home consoles.
func handheldNintendo(lm string) bool {
	return strings.HasSuffix(lm, "ds") || strings.HasSuffix(lm, "dsi") || strings.HasSuffix(lm, "ds xl") ||
		strings.HasSuffix(lm, "dsi xl") || strings.HasSuffix(lm, "ds ll")
}

// sonyConsoleOS sets the system of a PlayStation model: the PlayStation 3
// runs CellOS, the 4 Orbis OS, the 5 its own system and the Vita its own,
// each reporting its firmware version after the model.
func (s *state) sonyConsoleOS(model, version string) {
	name := ""
	switch model {
	case "3":
		name = "CellOS"
		version = ""
	case "4":
		name = "Orbis OS"
	case "5":
		name = "PS5 OS"
	case "vita":
		name = "PlayStation Vita"
	case "portable":
		s.devClass = "Handheld Game Console"
		return
	default:
		return
	}
	if !isVersionLike(version) {
		version = Unknown
	}
	s.os = osInfo{name: name, version: version, class: "Game Console", cpu: s.os.cpu}
}

// eReader recognises electronic book readers by the product their reading
// software sends: "PocketBook/626" (the PocketBook's own browser, which is
// also its layout engine) and "Kindle/3.0" (the browser of the E Ink
// Kindles, which run Amazon's FireOS). Kobo and Tolino readers name
// themselves in the model entry instead.
func (s *state) eReader() {
	p := s.p
	if pr, ok := p.product("PocketBook"); ok && isVersionLike(pr.version) {
		s.devClass, s.devBrand, s.devName = "eReader", "PocketBook", "PocketBook"
		s.engClass, s.engName, s.engVersion = "eReader", "PocketBook", cleanVersion(pr.version)
		s.agClass = "eReader"
		s.os.class = "Mobile"
		return
	}
	if pr, ok := p.product("Kindle"); ok && isVersionLike(pr.version) && !strings.Contains(pr.lname, "fire") {
		s.devClass, s.devBrand, s.devName = "eReader", "Amazon", "Amazon Kindle"
		s.os = osInfo{name: "FireOS", version: Unknown, class: "Mobile", cpu: s.os.cpu}
		return
	}
	for _, e := range p.entries {
		lt := p.ltext(e)
		if strings.HasPrefix(lt, "kobo ") || strings.HasPrefix(lt, "tolino ") {
			s.devClass = "eReader"
			if lt[0] == 'k' && (s.devBrand == "" || s.devBrand == Unknown) {
				s.devBrand, s.devName = "Kobo", normalizeName(p.text(e))
			}
			return
		}
	}
}
