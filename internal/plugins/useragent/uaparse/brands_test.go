package uaparse

import "testing"

// TestBrandPrefixLengths guards the stack buffer of brandOfModel, which
// lower-cases only the first 32 bytes of a model: every brand and model
// prefix must fit in them.
func TestBrandPrefixLengths(t *testing.T) {
	for _, bp := range brandPrefixes {
		if len(bp.prefix) > 32 || len(bp.brand) > 32 {
			t.Errorf("brand prefix %q (%s) is longer than the 32 bytes brandOfModel compares", bp.prefix, bp.brand)
		}
	}
}

// TestBrandProductLines checks the product-line rows of tables/brands.tsv
// (a maker's series sold under its own name) with a model of each.
func TestBrandProductLines(t *testing.T) {
	ensureModel()
	for model, want := range map[string]string{
		"Flare S7": "Cherry Mobile", "CITI_7586_3G": "Digma", "Citi 1903 4G": "Digma", "Optima 8019N 4G": "Digma",
		"Plane 1573N 3G": "Digma", "ILIUM M7s": "Lanix", "Impress Eagle": "Vertex", "M-MP7S2A3G": "Mediacom",
		"M-PPG700": "Mediacom", "M-SP10EGP": "Mediacom", "TM-7055HD": "teXet", "VIA_A1": "Casper", "VIA A3": "Casper", "BQru-4526": "BQ", "Aquaris X5 Plus": "BQ", "BQS-4005": "BQ",
		"nova 8": "Huawei", "Mate 40 RS": "Huawei", "Enjoy Z 5G": "Huawei", "Maimang 9": "Huawei", "Qin 1s+": "Xiaomi", "QIN2 Pro": "Xiaomi", "Black Shark 3S": "Xiaomi",
		"Aqua Lite": "Intex", "Aqua_Power_HD": "Intex", "Aqua.Active": "Intex", "Easy L Pro": "Highscreen", "Easy_S_Pro": "Highscreen", "Easy-Power": "Highscreen", "NT-0704S": "IconBIT", "NT-1017T": "IconBIT", "NT-3506M": "IconBIT",
		"SIE-S55": "Siemens", "Q.Boss P99": "ZYQ", "Q.Next J2": "ZYQ", "SUNWIND SKY 7 E200 3G ST7230MG": "Sunwind",
		"STARADDICT 6": "SFR", "KaiCloud942": "Kaiomy", "TNNH-AN00": "Huawei", "BTKR-W09": "Huawei", "AGRK-L09": "Huawei", "VOTO-T8100": "", "STARNAUTE3": "SFR", "STARSHINE III": "SFR", "HiSmart 4K ATV4": "Hisense",
		"Informer 706 3G": "Explay", "sQuad 10.06 3G": "Explay", "IEOS_NEXT_10": "Odys", "Era 2X": "Xolo", "era1X": "Xolo", "era2X": "Xolo", "TbooK 16 Pro": "Teclast",
		"iris402e": "Lava", "TPCY-TXE10DS": "JAY-Tech", "TPC-PA7807": "JAY-Tech", "Pacific 800i": "Oysters", "PacificV": "Oysters", "Pacific": "", "AtlanticV": "Oysters", "AntarcticE": "Oysters",
		"Arctic450": "Oysters", "Andi 5G Blink 4G": "iBall", "Cuddle A4": "iBall", "Infinity Prime 2": "QMobile", "Alfa 5": "Leagoo", "Vostro 14-3468": "Dell",
		"Latitude E4310": "Dell", "MeMOPad 10FHD LTE": "Asus", "MeMO Pad 7": "Asus", "ACTAB1021": "Acer", "XiaoXin Pad 2022": "Lenovo", "ITELL K4700": "iLife",
		"WTAB 805": "iLife", "Dazen 6A": "Coolpad", "Foxtrot": "Telefunken", "Outdoor WT4-S": "Telefunken", "LUXURY 4": "Brondi", "CENTURION": "Brondi",
		"Surfing Tab C 3G": "Brondi", "ARIES_101": "GOCLEVER", "ELIPSO_71": "GOCLEVER", "LIBRA 97": "GOCLEVER", "ORION_102": "GOCLEVER", "TERRA_7oL": "GOCLEVER",
		"Alife P1": "Blackview", "Opus 3": "Xolo", "iwork10 Pro": "Cube", "Elite 5.0M": "Sky", "Elite 6.0L+": "Sky",
		"Elite 4.0": "Sky", "Elite_5_5_Octa": "Sky", "ELITE_Octaplus": "Sky",
	} {
		if b, _ := brandOfModel(model); b != want {
			t.Errorf("brandOfModel(%q) = %q, want %q", model, b, want)
		}
	}
}

// TestModelAfterPrefix checks the models that another maker's tag
// precedes: Meizu's browser's "MZ-" and carriers' build tags, and the
// first words that are a maker's own name, which stay the brand.
func TestModelAfterPrefix(t *testing.T) {
	a := New(Options{})
	for model, want := range map[string]string{
		"MZ-Infinix X695C": "Infinix X695C",
		"MZ-M2010J19SY":    "Xiaomi M2010J19SY",
		"MZ-STK-LX1":       "Huawei STK-LX1",
		"MZ-M3s":           "Meizu MZ-M3S",
		"MZ-MEIZU 20":      "Meizu MZ-Meizu 20",
		"OB-OPPO A31c":     "Oppo A31C",
		"BBG-vivo X3V":     "Vivo X3V",
		"M1903F10I":        "Xiaomi M1903F10I",
		"Garmin-Asus A10":  "Garmin-Asus A10",
		"Getnord-Onyx":     "Getnord Onyx",
		"GLORY O2":         "Glory O2",
	} {
		ua := "Mozilla/5.0 (Linux; U; Android 10; zh-CN; " + model + " Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/57.0.2987.108 MZBrowser/2.2.010 Mobile Safari/537.36"
		if got := a.Analyze(ua).Get("DeviceName"); got != want {
			t.Errorf("%s: DeviceName %q, want %q", model, got, want)
		}
	}
}

// TestModelLikeLocale checks that models with a locale's shape are read
// as models and locales are still skipped.
func TestModelLikeLocale(t *testing.T) {
	a := New(Options{})
	for entry, want := range map[string]string{
		"PX_Pro":     "Elephone PX PRO",
		"Le_Spark":   "Logicom LE Spark",
		"UP_Groove":  "Starmobile UP Groove",
		"EN-GB":      "Samsung SM-A515F",
		"ZH-HANS-CN": "Samsung SM-A515F",
		"en-us":      "Samsung SM-A515F",
		"zh_CN":      "Samsung SM-A515F",
		"Ar-eg":      "Samsung SM-A515F",
	} {
		ua := "Mozilla/5.0 (Linux; U; Android 10; " + entry + "; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.66 Mobile Safari/537.36"
		if entry == "PX_Pro" || entry == "Le_Spark" || entry == "UP_Groove" {
			ua = "Mozilla/5.0 (Linux; Android 10; " + entry + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.66 Mobile Safari/537.36"
		}
		if got := a.Analyze(ua).Get("DeviceName"); got != want {
			t.Errorf("%s: DeviceName %q, want %q", entry, got, want)
		}
	}
}

// TestProcessorEntryBeforeModel checks that the processor Yandex's
// browsers write after the Android version is not read as the model.
func TestProcessorEntryBeforeModel(t *testing.T) {
	a := New(Options{})
	for _, ua := range []string{
		"Mozilla/5.0 (Linux; Android 10; arm_64; ART-L29N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.116 YaBrowser/20.7.2.70.00 SA/1 Mobile Safari/537.36",
		"Mozilla/5.0 (Linux; arm_64; Android 10; ART-L29N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.116 YaBrowser/20.7.2.70.00 SA/1 Mobile Safari/537.36",
	} {
		if got := a.Analyze(ua).Get("DeviceName"); got != "Huawei ART-L29N" {
			t.Errorf("%s: DeviceName %q, want Huawei ART-L29N", ua, got)
		}
	}
}
