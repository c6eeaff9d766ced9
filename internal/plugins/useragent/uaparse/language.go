package uaparse

import "strings"

// languageNames are the English names of ISO 639 language codes, as Yauaa
// shows them in AgentLanguage. Only codes listed here are taken from a
// bare two-letter comment entry, so that other short tokens are not read
// as languages.
var languageNames map[string]string

func buildLanguageNames() map[string]string {
	return map[string]string{
		"af": "Afrikaans", "ak": "Akan", "am": "Amharic", "ar": "Arabic", "az": "Azerbaijani", "be": "Belarusian",
		"bg": "Bulgarian", "bn": "Bengali", "bs": "Bosnian", "ca": "Catalan", "cs": "Czech", "cy": "Welsh",
		"da": "Danish", "de": "German", "el": "Greek", "en": "English", "eo": "Esperanto", "es": "Spanish",
		"et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French", "ga": "Irish",
		"gl": "Galician", "gu": "Gujarati", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian",
		"hy": "Armenian", "id": "Indonesian", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "ka": "Georgian",
		"kk": "Kazakh", "km": "Khmer", "kn": "Kannada", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian",
		"mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay", "mt": "Maltese",
		"nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk", "no": "Norwegian",
		"pa": "Punjabi", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian", "sk": "Slovak",
		"sl": "Slovenian", "sq": "Albanian", "sr": "Serbian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil",
		"te": "Telugu", "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu",
		"uz": "Uzbek", "vi": "Vietnamese", "zh": "Chinese", "zu": "Zulu",
		"eng": "English", "nld": "Dutch", "deu": "German", "ger": "German", "fra": "French", "fre": "French",
		"ces": "Czech", "cze": "Czech", "spa": "Spanish", "ita": "Italian", "pol": "Polish", "swe": "Swedish",
	}
}

// countryNames are the English names of ISO 3166 country codes used in
// locales.
var countryNames map[string]string

func buildCountryNames() map[string]string {
	return map[string]string{
		"ae": "United Arab Emirates", "ar": "Argentina", "at": "Austria", "au": "Australia", "be": "Belgium",
		"bg": "Bulgaria", "br": "Brazil", "ca": "Canada", "ch": "Switzerland", "cl": "Chile", "cn": "China",
		"co": "Colombia", "cz": "Czech Republic", "de": "Germany", "dk": "Denmark", "ee": "Estonia", "eg": "Egypt",
		"es": "Spain", "fi": "Finland", "fr": "France", "gb": "United Kingdom", "gr": "Greece", "hk": "Hong Kong",
		"hr": "Croatia", "hu": "Hungary", "id": "Indonesia", "ie": "Ireland", "il": "Israel", "in": "India",
		"iq": "Iraq", "ir": "Iran", "it": "Italy", "jp": "Japan", "kr": "South Korea", "kz": "Kazakhstan",
		"lt": "Lithuania", "lu": "Luxembourg", "lv": "Latvia", "ma": "Morocco", "mt": "Malta", "mx": "Mexico",
		"my": "Malaysia", "ng": "Nigeria", "nl": "Netherlands", "no": "Norway", "nz": "New Zealand", "pe": "Peru",
		"ph": "Philippines", "pk": "Pakistan", "pl": "Poland", "pt": "Portugal", "ro": "Romania", "rs": "Serbia",
		"ru": "Russia", "sa": "Saudi Arabia", "se": "Sweden", "sg": "Singapore", "si": "Slovenia", "sk": "Slovakia",
		"th": "Thailand", "tr": "Turkey", "tw": "Taiwan", "ua": "Ukraine", "uk": "United Kingdom",
		"us": "United States", "ve": "Venezuela", "vn": "Vietnam", "za": "South Africa",
	}
}

// kwUnderscoreHash marks a locale with a script ("zh_CN_#Hans"): without
// it anywhere in the user agent, localeOf does not search each entry for
// one.
var kwUnderscoreHash needleID

// localeOf recognises a comment entry (t, and lt in lower case) that is a
// locale and returns the
// language code as Yauaa writes it: "en-US" and "zh_CN_#Hans" become
// "en-us" and "zh-cn", a bare "de" or "AK" stays a language, and longer
// platform forms ("ja-JP-mac") are kept as they are. scripted says that
// "_#" may occur in lt; when it is false, lt is not searched for it.
func localeOf(t, lt string, scripted bool) string {
	if scripted {
		if k := indexUnderscoreHash(lt); k > 0 {
			lt, t = lt[:k], t[:k]
		}
	}
	switch {
	case len(lt) == 2 && isLetter(lt[0]) && isLetter(lt[1]):
		if _, ok := languageNames[lt]; ok {
			return lt
		}
	case len(lt) == 5 && (lt[2] == '-' || lt[2] == '_'):
		if _, ok := languageNames[lt[:2]]; ok && isLetter(lt[3]) && isLetter(lt[4]) {
			if lt[2] == '-' {
				return lt // a slice of the lower case user agent: no copy
			}
			return lt[:2] + "-" + lt[3:]
		}
	case len(lt) > 6 && lt[2] == '-' && (lt[5] == '-' || lt[5] == '.'):
		if _, ok := languageNames[lt[:2]]; ok && isLetter(lt[3]) && isLetter(lt[4]) {
			return t
		}
	}
	if len(lt) == 3 && lt[2] == '-' || len(lt) == 5 && (lt[2] == '-' || lt[2] == '_') {
		// A language with an empty country ("nl-"), or a locale of a
		// language or country the maps above do not hold ("ak-gh"): the
		// code of its row in tables/languages.tsv.
		if l, ok := languages[lt]; ok {
			return l.code
		}
	}
	return ""
}

// languageName spells a language code out: "en-us" is "English (United
// States)", by its row of tables/languages.tsv, else from the names of its
// language and country.
//
// The name is built in p's arena (parsed.concat); p may be nil.
func languageName(p *parsed, code string) string {
	lc := code
	if len(code) > 5 {
		lc = p.lower(code) // "ja-JP-mac", kept in its own spelling
	}
	if l, ok := languages[lc]; ok {
		// Yauaa's name of the language or locale (tables/languages.tsv):
		// "zh-cn" is "Chinese (S)", "bn-bd" "Bangla (Bangladesh)".
		return l.name
	}
	lang, ok := languageNames[lc[:min(2, len(lc))]]
	if len(lc) == 3 {
		lang, ok = languageNames[lc]
	}
	if !ok {
		return code
	}
	if len(lc) >= 5 && lc[2] == '-' {
		if c, ok := countryNames[lc[3:5]]; ok {
			return p.concat(lang, " (", c, ")")
		}
	}
	return lang
}

// indexUnderscoreHash is strings.Index(s, "_#"), asked of every comment
// entry: a search for the rare '#' alone, which is much cheaper on the
// short entries than the general search of two bytes.
func indexUnderscoreHash(s string) int {
	for off := 0; ; {
		j := strings.IndexByte(s[off:], '#')
		if j < 0 {
			return -1
		}
		j += off
		if j > 0 && s[j-1] == '_' {
			return j - 1
		}
		off = j + 1
	}
}

// languages maps the lower case key of every row of tables/languages.tsv
// (Yauaa's ISOLanguageCodes lookups) to the code and the name of the
// language or locale.
var languages map[string]struct{ code, name string }

func buildLanguages() map[string]struct{ code, name string } {
	rows := loadTable("languages.tsv", tableColumns["languages.tsv"])
	m := make(map[string]struct{ code, name string }, len(rows))
	for _, r := range rows {
		m[asciiLower(r[0])] = struct{ code, name string }{r[1], r[2]}
	}
	return m
}
