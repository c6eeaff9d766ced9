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
		"SIE-S55": "Siemens", "QC-2325": "Kyocera", "QC-5135": "Kyocera", "OW19W1": "Oppo", "OW20W1": "Oppo", "RX17Neo": "Oppo", "RX17 Pro": "Oppo", "Q.Boss P99": "ZYQ", "Q.Next J2": "ZYQ", "SUNWIND SKY 7 E200 3G ST7230MG": "Sunwind",
		"STARADDICT 6": "SFR", "KaiCloud942": "Kaiomy", "TNNH-AN00": "Huawei", "BTKR-W09": "Huawei", "AGRK-L09": "Huawei", "VOTO-T8100": "", "STARNAUTE3": "SFR", "STARSHINE III": "SFR", "HiSmart 4K ATV4": "Hisense",
		"Lumia 430 Dual SIM": "Microsoft", "Lumia 435": "Microsoft", "Lumia 532": "Microsoft", "Lumia 535": "Microsoft", "Lumia 540 Dual SIM": "Microsoft",
		"Lumia 550": "Microsoft", "Lumia 640 XL": "Microsoft", "Lumia 650": "Microsoft", "Lumia 950 XL": "Microsoft", "Lumia 930": "Nokia", "Lumia 1320": "Nokia",
		"CarPad-III-P": "NewsMy", "Mac Audio Spro": "MAC AUDIO", "X-Force(TM-5009)": "teXet", "X-PlusTM-5577": "teXet", "X Point": "teXet", "X-point TM-4510": "teXet",
		"Elite Grace": "Swipe", "Elite_Grace": "Swipe", "Elite Star": "Swipe", "Elite Note": "Swipe", "Elite Power": "Swipe",
		"Vivo One Plus": "Blu", "Vivo XL3 Plus": "Blu", "Vivo XI+": "Blu", "VIVO GO": "Blu", "Vivo Air": "Blu", "Vivo Selfie": "Blu", "vivo 1820": "Vivo",
		"Energy S500": "Energizer", "ENERGY S600": "Energizer", "Energy E500": "Energizer", "Energy 100": "Energizer", "Energy 200": "Energizer", "Energy 400 LTE": "Energizer",
		"Energy 500": "Energizer", "Energy400": "Energizer", "Energy500": "Energizer", "Energy_400": "Energizer", "ENERGY_500_LTE": "Energizer", "Energy Phone Pro": "Energy Sistem",
		"EverMiracle Plus": "Evertek", "EverMiracle S": "Evertek", "EverGlory": "Evertek", "EverTrendy+4G": "Evertek", "NOOK BNRV200": "Barnes & Noble", "NOOK BNTV250A": "Barnes & Noble",
		"SonyEricssonLT28h": "Sony", "SonyEricssonST25iv": "Sony", "SonyEricssonLT22i-o": "Sony", "SonyEricssonLT15i": "SonyEricsson", "SonyEricssonX10i": "SonyEricsson",
		"T10(E3C6)": "Teclast", "X10 (M1D3)": "Teclast",
		"MegaFon V9+": "MegaFon", "MegaFon_SP-A10": "MegaFon",
		"iQ5017": "MLS", "iQEL41": "MLS", "iQ411M": "MLS", "iQOO 8": "", "IQ4415": "",
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
		"BE_xl":      "Bleck BE XL",
	} {
		ua := "Mozilla/5.0 (Linux; U; Android 10; " + entry + "; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.66 Mobile Safari/537.36"
		if entry == "PX_Pro" || entry == "Le_Spark" || entry == "UP_Groove" || entry == "BE_xl" {
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

// TestBuilderBrand shows an Android build that names its maker, alone or
// before the model, on user agents written for the test; a build of
// Huawei's or one that names no maker leaves the model's own reading.
func TestBuilderBrand(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 4.4.2; TQ800X Build/GOCLEVER) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Safari/537.36",
			map[string]string{"DeviceBrand": "GOCLEVER", "DeviceName": "GOCLEVER TQ800X"}},
		{"Mozilla/5.0 (Linux; U; Android 4.2.2; en-us; Q900 Build/XOLOQ900) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
			map[string]string{"DeviceBrand": "Xolo", "DeviceName": "Xolo Q900"}},
		{"Mozilla/5.0 (Linux; Android 4.4.3; F7 Build/MOFUTF7) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/33.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Mofut", "DeviceName": "Mofut F7"}},
		{"Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; E70w Build/PioneerE70w) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
			map[string]string{"DeviceBrand": "Pioneer"}},
		{"Mozilla/5.0 (Linux; Android 5.1; vk6580 Build/vkworld) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/39.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Vkworld"}},
		{"Mozilla/5.0 (Linux; Android 10; LGN-LX9 Build/HONORLGN-L39) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.93 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Huawei", "DeviceName": "Huawei LGN-LX9"}},
		{"Mozilla/5.0 (Linux; Android 10; GAR-AN00 Build/WIKOGAR-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.93 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Wiko"}},
		{"Mozilla/5.0 (Linux; Android 9; SM-A105F Build/PPR1.180610.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.99 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Samsung"}},
	})
}

// TestSonyXperiaBrand checks the Xperia series codes by era: Sony
// Ericsson's before 2012, Sony's after.
func TestSonyXperiaBrand(t *testing.T) {
	for model, want := range map[string]string{
		"LT18i": "SonyEricsson", "ST18i": "SonyEricsson", "MT25i": "SonyEricsson", "SK17a": "SonyEricsson", "WT19i": "SonyEricsson", "MK16i": "SonyEricsson",
		"LT22i": "Sony", "LT28h": "Sony", "ST21i": "Sony", "ST25i": "Sony", "MT27i": "Sony", "L39h": "Sony", "LT10": "Sony", "SK20": "",
	} {
		if b := sonyXperiaBrand(model); b != want {
			t.Errorf("sonyXperiaBrand(%q) = %q, want %q", model, b, want)
		}
	}
}

// TestTCLNumbers checks TCL's own model numbers beside the OneTouch
// numbers of its Alcatel phones, and that the catalogue's exact model
// speaks for an Alcatel with a number of TCL's shape.
func TestTCLNumbers(t *testing.T) {
	ensureModel()
	for model, want := range map[string]string{
		"4188S": "TCL", "6159A": "TCL", "9460G": "TCL", "6125H_EEA": "TCL", "5033D": "Alcatel", "6025H": "Alcatel", "8063": "Alcatel",
	} {
		if b, _ := brandOfModel(model); b != want {
			t.Errorf("brandOfModel(%q) = %q, want %q", model, b, want)
		}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 5.1; 5116J Build/LMY47I) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/39.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceBrand": "Alcatel"}},
	})
}

// TestNarrowedPrefixes checks the maker's own rows that stand for short
// prefixes Google Play's list shows other makers use: the maker's models
// keep their brand, and the other makers' models no longer take it.
func TestNarrowedPrefixes(t *testing.T) {
	ensureModel()
	for model, want := range map[string]string{
		"TEL-AN00": "Huawei", "TAG-L21": "Huawei", "SD4930UR": "Amazon", "Z2 Play": "Motorola", "Z2 Force": "Motorola", "E10319": "Medion", "P1061X": "Medion", "X1030X": "Medion",
	} {
		if b, _ := brandOfModel(model); b != want {
			t.Errorf("brandOfModel(%q) = %q, want %q", model, b, want)
		}
	}
	for model, not := range map[string]string{
		"SD01M": "Amazon", "SDSTB02": "Amazon", "Z2 Plus": "Motorola", "Z28Pro": "Motorola", "SOLE_POP_S50": "Sony", "SOLO_Aspire": "Sony",
		"E101GCM": "Medion", "P10S": "Medion", "X1013": "Medion", "X10S": "Medion", "5102O": "Alcatel", "Rio": "HTC", "Evolio X": "HTC",
		"TEL-74GIQ": "Huawei", "4K Google TV Stick": "Google", "VERTEX Impress_Open": "HTC", "DREAMSTAR W2": "HTC", "Primo H8": "HTC", "Vision_Tab_10": "HTC", "Gemini Pro": "HTC", "Magic5 Pro": "HTC",
	} {
		if b, _ := brandOfModel(model); b == not {
			t.Errorf("brandOfModel(%q) = %q, want another maker or none", model, b)
		}
	}
}

// TestHuaweiVariantShapes checks Huawei's series-and-variant shape against
// other makers' models of three letters, a dash, a letter and one digit.
func TestHuaweiVariantShapes(t *testing.T) {
	for m, want := range map[string]bool{
		"VNS-L21": true, "MAR-LX1M": true, "AGS-W09": true, "LYA-L0C": true, "ANA-AN00": true,
		"SKW-A0": false, "SAC-A0": false, "MES-B1": false,
	} {
		if got := huaweiModel(m); got != want {
			t.Errorf("huaweiModel(%q) = %v, want %v", m, got, want)
		}
	}
}

// TestBoardCodeCut shows Teclast's board code cut from the model's name
// (the tablet is the same product on every board), and what is no board
// code kept.
func TestBoardCodeCut(t *testing.T) {
	ensureModel()
	for model, want := range map[string]string{"M40(N9H3)": "M40", "X10 (M1D3)": "X10", "P10S(N4H5)": "P10S"} {
		if b, rest := brandOfModel(model); b != "Teclast" || rest != want {
			t.Errorf("brandOfModel(%q) = %q, %q, want Teclast, %q", model, b, rest, want)
		}
	}
	for _, model := range []string{"T10(e3c6)", "(N9H3)", "Tab (2020)"} {
		if got := cutBoardCode(model); got != model {
			t.Errorf("cutBoardCode(%q) = %q, want it kept", model, got)
		}
	}
}
