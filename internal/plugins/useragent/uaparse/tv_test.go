package uaparse

import (
	"strings"
	"testing"
)

// TestHisenseMarker shows which user agents naming Hisense are its
// televisions: VIDAA, or Hisense on a platform other than Android; a
// Hisense Android model is a phone or a tablet like any other. The models
// are made up in Hisense's shapes.
func TestHisenseMarker(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 11; Hisense E50 Lite) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Hisense", "DeviceName": "Hisense E50 Lite", "OperatingSystemName": "Android"}},
		{"Mozilla/5.0 (Linux; Android 11; Hisense Infinity H60 5G Build/RP1A.200720.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone", "DeviceBrand": "Hisense", "OperatingSystemName": "Android"}},
		{"Mozilla/5.0 (X11; Linux x86_64;) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/47.0.2526.106 Safari/537.36 SRAF/4.0 Hisense/1.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Hisense", "OperatingSystemName": "Vidaa"}},
	})
}

// TestTVPlatforms checks a row of tables/tv_platforms.tsv of each shape: a
// product, a comment entry, a product inside a comment, a set-top box, and
// platforms that are the device's system. The user agents are made up in
// the shapes these platforms send.
func TestTVPlatforms(t *testing.T) {
	class := func(c string) map[string]string { return map[string]string{"DeviceClass": c} }
	checkRuleCases(t, []ruleCase{
		{"Opera/9.80 (Linux armv7l; Opera TV Store/6219) Presto/2.12.407 Version/12.50 SonyCEBrowser/1.0 (KD-55X0000B; CTV2014/PKG2.263GAA; AUS)", class("TV")},
		{"Opera/9.80 (Linux mips; Opera TV Store/4510; U; en) Presto/2.10.250 Version/11.60", class("TV")},
		{"Mozilla/5.0 (DTV) AppleWebKit/531.2+ (KHTML, like Gecko) Espial/6.1.5 ExampleBrowser/2.0", class("TV")},
		{"Opera/9.80 (Linux armv7l; InettvBrowser/2.2 (00014A;SonyDTV140;0001;0001) KDL40W000C; CC/RUS) Presto/2.12.407 Version/12.50", class("TV")},
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.128 Safari/537.36 TiVoOS/1.0.0 (Example MB100 EXAMPLE)",
			map[string]string{"DeviceClass": "TV", "OperatingSystemName": "TiVo OS", "OperatingSystemVersion": "1.0.0", "OperatingSystemClass": "Embedded"}},
		{"VIZIO V000-J01 ViziOS/1.4.512.847.1 ExampleTV/24.06.13.2",
			map[string]string{"DeviceClass": "TV", "OperatingSystemName": "ViziOS", "OperatingSystemVersion": "1.4.512.847.1", "DeviceBrand": "Vizio", "DeviceName": "Vizio V000-J01"}},
		// The "Model/Maker-Model" product of a television's browser.
		{"Opera/9.80 (Linux mips; Opera TV Store/4510; U; en) Presto/2.10.250 Version/11.60 Model/Sony-KDL-00EX000 SonyCEBrowser/1.0 (KDL-00EX000; CTV/PKG2.120GAA; IND)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sony", "DeviceName": "Sony KDL-00EX000"}},
		{"BrightSign/9.0.109 (LS000) Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.15.2 Chrome/87.0.4280.144 Safari/537.36",
			map[string]string{"DeviceClass": "Set-top box", "OperatingSystemName": "BrightSignOS", "OperatingSystemVersion": "9.0.109", "DeviceBrand": "BrightSign", "DeviceName": "BrightSign LS000"}},
		{"Mozilla/5.0 (QtEmbedded; U; Linux; C) AppleWebKit/533.3 (KHTML, like Gecko) WDSimpleBrowser/0.2.10 Safari/533.3",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Western Digital", "DeviceName": "Western Digital WD TV"}},
		{"Opera/9.80 (Linux mips; U; xx) Presto/2.10.287 Version/12.00 DuneHD/1.0 (tv102; 130515_2104_b6)",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Dune HD", "DeviceName": "Dune HD tv102"}},
		// A platform of one maker names it, after a browser of many
		// ("Espial/6.1.5 AQUOSBrowser/2.0") or in the comment; a
		// "Model/Maker-Model" product still names the set.
		{"Mozilla/5.0 (DTV) AppleWebKit/531.2+ (KHTML, like Gecko) Espial/6.1.5 AQUOSBrowser/2.0 (XX00DTV;V;0001;0001)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sharp", "DeviceName": "Sharp Unspecified TV"}},
		{"Opera/9.80 (Linux armv6l; Opera TV Store/4563; U; SonyCEBrowser/1.0 (BDPlayer; BDP-X0000; BDP2016/M36.D.0020; XAE; ); en) Presto/2.10.250 Version/11.60",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sony", "DeviceName": "Sony BDP-X0000"}},
		// Sony's browser names the model before the firmware, the kind
		// of device a player writes first aside; without a firmware
		// entry the comment names no model.
		{"Opera/9.80 (Linux armv6l; Opera TV Store/5599) Presto/2.12.362 Version/12.11 SonyCEBrowser/1.0 (BDP0G_AX; BDP2013/M14.R.0197; AUS; )",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sony", "DeviceName": "Sony BDP0G AX"}},
		{"Opera/9.80 (Linux armv6l; Opera TV Store/5599) Presto/2.12.362 Version/12.11 SonyCEBrowser/1.0 (BDPlayer; AUS)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sony", "DeviceName": "Sony Unspecified TV"}},
		{"Mozilla/5.0 (X11; FreeBSD; U; Viera; en-GB) AppleWebKit/537.11 (KHTML, like Gecko) Viera/3.10.0 Chrome/23.0.1271.97 Safari/537.11",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Panasonic", "DeviceName": "Panasonic Viera"}},
		// Browsers that television makers ship: Yandex Browser's
		// television edition, Opera's OMI and TV Bro.
		{"Mozilla/5.0 (Linux; Android 11; Qwzy 43 Build/RP1A.200720.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/113.0.5672.163 YaBrowser/24.1.2.86 (lite) TV Safari/537.36", class("TV")},
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.120 Safari/537.36 OPR/46.0.2207.0 OMI/4.20.5.61.LIMA.164", class("TV")},
		{"TV Bro/1.0 Mozilla/5.0 (Linux; Android 10; Qwzy Q1 Build/QTT5.200429.010; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/103.0.5060.71 Safari/537.36", class("TV")},
		// TiviMate, an IPTV player of Android TV, names the box in its
		// comment.
		{"TiviMate/4.7.0 (Example Box X1; Android 11)", class("TV")},
		// Sharp's AQUOS platform, before the set's model.
		{"Opera/9.80 (Linux armv6l; U; en) Presto/2.8.115 Version/11.10 AQUOS-AS/1.0 LC-00XX000X",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sharp", "DeviceName": "Sharp LC-00XX000X"}},
		{"Mozilla/5.0 (DTV) AppleWebKit/531.2+ (KHTML, like Gecko) Espial/6.1.6 AQUOSBrowser/1.0 (XX00DTV;V;0001;0001)AQUOS-AS/2.0 LC-00XX000X",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sharp", "DeviceName": "Sharp LC-00XX000X"}},
		// VIZIO's SmartCast names the maker and, in its comment, the
		// model; the set is no Chromecast although its Cast receiver
		// sends "CrKey".
		{"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.124 Safari/537.36 CrKey/1.0.999999 VIZIO SmartCast(Conjure/MTKC-108.710.14 FW/1.710.30.2-1 Model/V000-J01) CrKey/1.56.500000",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Vizio", "DeviceName": "Vizio V000-J01", "OperatingSystemName": "ViziOS"}},
		// A platform after the browser still names the system.
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.128 Safari/537.36 OPR/46.0.2207.0 OMI/4.23.2.96.LIMA2.117 Model/Example-MB100 TiVoOS/1.0.0 (Example MB100 EXAMPLE)",
			map[string]string{"DeviceClass": "TV", "OperatingSystemName": "TiVo OS"}},
		// A rule that names the box outranks the browser's platform.
		{"OPR/19.0.1325.0 OMI/4.1.4.54, KreaTV/15.99.2.1 (ARRIS, IPC1100P2, wired)", class("Set-top box")},
	})
}

// TestHbbTVVendorEntry shows a television that sends the HbbTV version
// without its parenthesised list and names its maker in a "Vendor/" entry
// of its own, or as Loewe's first product. The software versions and
// models are made up.
func TestHbbTVVendorEntry(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Opera/9.80 (X11;Linux armv7i;NETRANGEMMH;HbbTV/1.1.1;CE-HTML/1.0;Vendor/THOMSON;SW-Version/V8-EXAMPLE;Cnt/GBR;Lan/eng;U;en) AppleWebKit/534.24 (KHTML, like Gecko) Version/12.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Thomson", "DeviceName": "Thomson Unspecified TV"}},
		// The same set ending with the consumer electronics trailer,
		// which names the model.
		{"Opera/9.80 (X11;Linux armv7i;NETRANGEMMH;HbbTV/1.1.1;CE-HTML/1.0;Vendor/THOMSON;SW-Version/V8-EXAMPLE;Cnt/GBR;Lan/eng;U;en) AppleWebKit/534.24 (KHTML, like Gecko) Safari/534.24, Digital-TV/V8-EXAMPLE (THOMSON,40XX1234,wireless)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Thomson", "DeviceName": "Thomson 40XX1234"}},
		// Loewe's older sets: the maker first, the chassis last, a
		// product of its own; another product is no chassis.
		{"LOEWE/TV HbbTV/1.1.1 CE-HTML/1.0 SL199/16.16.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Loewe", "DeviceName": "Loewe SL199"}},
		{"LOEWE/TV HbbTV/1.1.1 CE-HTML/1.0 Slim/16.16.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Loewe", "DeviceName": "Loewe Unspecified TV"}},
		// The same list with its parentheses stripped by a proxy.
		{"Opera/9.80 X11;Linux armv7i;NETRANGEMMH;HbbTV/1.1.1;CE-HTML/1.0;Vendor/THOMSON;SW-Version/V8-EXAMPLE;Cnt/GBR;Lan/eng;U;en AppleWebKit/534.24 KHTML, like Gecko Safari/534.24",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Thomson"}},
	})
}

// TestTVVendorFields shows the brand read from the vendor fields of
// televisions built by one company for many brands: the chain of an HbbTV
// vendor ("LGE/ODM/BRAND"), Vestel's "CUS:" customer mark, a brand whose
// spaces are underscores, the brand at the end of a VIDAA model field, the
// Freeview Play entry and the comment of TiVo OS, and the model Hisense's
// platforms write in the hardware version. The brands and models are made
// up in these shapes.
func TestTVVendorFields(t *testing.T) {
	brand := func(b string) map[string]string { return map[string]string{"DeviceClass": "TV", "DeviceBrand": b} }
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; LGE/EXAMPLEODM/QWZYTEC; QT55X1; WEBOS22 03.34.35; W22_K8AP; DTV_C22L;)",
			brand("Qwzytec")},
		{"Mozilla/5.0 (Linux; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.71 Safari/537.36 SRAF/3.6 HbbTV/1.2.1 (; EXAMPLEODM/QWZYTEC; 16QT038; 1.3; 1.1; 2018); CE-HTML/1.0",
			brand("Qwzytec")},
		{"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/68.0.3440.106 Safari/537.36 HbbTV/1.5.1 (+DRM; LGE/EXAMPLEODM; 43QT000; WEBOS5.0 04.50.60; W50_K6LP; DTV_C20P;)",
			brand("LG")},
		{"Opera/9.80 (Linux mips; ) Presto/2.12.407 Version/12.51 HbbTV/1.2.1 (; CUS:QWZYTEC; MB95; 3.6.2.f; 1.0;) SmartTvA/3.0.0 CE-HTML/1.0",
			brand("Qwzytec")},
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.99 Safari/537.36 OPR/46.0.2207.0 OMI/4.13.5.431.SIERRA.164 Model/Vestel-MB230 VSTVB MB200 HbbTV/1.5.1 (+DRM; QWZY_VISION; MB230; 0.51.49.0; ; _TV_NT72671_2019;) SmartTvA/3.0.0",
			brand("Qwzy Vision")},
		{"Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.127 Odin/100.4896.4.10 Safari/537.36 HbbTV/1.6.1 (+DRM;VIDAA;2023_VS0000FD2_0104_QWZYTEC;V0104.07.00W.N1116;;0000;) FVC/8.0 (VIDAA;0000;)",
			brand("Qwzytec")},
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.120 Safari/537.36 OPR/46.0.2207.0 OMI/4.20.5.61.LIMA.179 Model/Vestel-MB181 VSTVB MB100 FVC/5.0 (QWZYTEC; MB181; ) SmartTvA/3.0.0",
			brand("Qwzytec")},
		{"Mozilla/5.0 (Linux ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.128 Safari/537.36 OPR/46.0.2207.0 OMI/4.23.2.96.LIMA2.117 Model/Vestel-MB181 VSTVB MB100 TiVoOS/1.0.0 (Vestel MB181 QWZYTEC) SmartTvA/3.0.0",
			brand("Qwzytec")},
		// TCL's Opera sets name the chip's platform, with TCL's code for
		// the chassis in the comment after it.
		{"Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.120 Safari/537.36 OPR/46.0.2207.0 OMI/4.20.4.54.Elm.33 Model/ELM-NT00000X(TCL00000X;V8-NT00XLA-LF1V000;T000.000.000.0) SmartTvA/3.0.0",
			brand("TCL")},
		// A webOS set LG builds for another brand names only LG; its model
		// number is the brand's (tables/model_codes.tsv).
		{"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chr0me/68.0.3440.106 Safari/537.36 LG Browser/8.00.00(LGE; OV32000; 04.50.62; 0x00000001; DTV_C20L); webOS.TV-2020; LG NetCast.TV-2013 Compatible (LGE, OV32000, wireless)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "ONVO", "DeviceName": "ONVO OV32000"}},
		{"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chr0me/68.0.3440.106 Safari/537.36 LG Browser/8.00.00(LGE; 43UN0000PLB; 04.50.62; 0x00000001; DTV_C20L); webOS.TV-2020; LG NetCast.TV-2013 Compatible (LGE, 43UN0000PLB, wireless)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "LG", "DeviceName": "LG 43UN0000PLB"}},
		// Sky's Q boxes: the role, then the maker and the model.
		{"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.6.0 Chrome/45.0.2454.101 Safari/537.36 GW-Device/1.0.0 (Sky, ES000, )",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Sky", "DeviceName": "Sky ES000"}},
		// Infomir's MAG boxes: the box before its portal application.
		{"Mozilla/5.0 (QtEmbedded; U; Linux; C) AppleWebKit/533.3 (KHTML, like Gecko) MAG000 stbapp ver: 2 rev: 250 Safari/533.3",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Infomir", "DeviceName": "Infomir MAG000"}},
		// A Japanese internet television: the maker in the InettvBrowser
		// profile, the model after it.
		{"Opera/9.80 (Linux armv7l; InettvBrowser/2.2 (00014A;SonyDTV140;0001;0001) KDL00W000C; CC/RUS) Presto/2.12.407 Version/12.50",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Sony", "DeviceName": "Sony KDL00W000C"}},
		// Vestel's Opera sets: the brand in the UID marker.
		{"Opera/9.80 (Linux mips; U; ; en) Presto/2.10.287 Version/12.00 UID(00:00:00:00:00:00/MB91/QWZYTEC/3.2.9.r)+CE-HTML;MEM:HIGH",
			brand("Qwzytec")},
		// Hisense's platforms: the platform's name in the model field, the
		// model with its variant in the hardware version; a hardware
		// version that is no model code leaves the platform's name.
		{"Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/84.0.4147.140 Safari/537.36 OPR/46.0.2207.0 OMI/4.21.2.50.Honey.189 HbbTV/1.5.1 (+DRM;Hisense;SmartTV_2021;V0000.01.00U.M0421;00A00QWZY_0003;SmartTV_2021;) FVC/5.0 (Hisense;SmartTV_2021;)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Hisense", "DeviceName": "Hisense 00A00QWZY"}},
		{"Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/84.0.4147.140 Safari/537.36 OPR/46.0.2207.0 OMI/4.21.2.50.Honey.189 HbbTV/1.5.1 (+DRM;Hisense;SmartTV_2021;V0000.01.00U.M0421;;SmartTV_2021;) FVC/5.0 (Hisense;SmartTV_2021;)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Hisense", "DeviceName": "Hisense SmartTv 2021"}},
		// Samsung's platform of a year before the model and a colon.
		{"HbbTV/1.5.1 (+DRM;Samsung;SmartTV2021:QA00Q00;T-QWZYDEUC-0000.00;Qwzy;urn:samsungtv:familyname:21_QWZY_QTV:2021;) Tizen/6.0 (+TVPLUS+SmartHubLink+360avc) Chrome/76",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Samsung", "DeviceName": "Samsung QA00Q00"}},
		// A comma written for the semicolon after the capabilities.
		{"Mozilla/5.0 (Seraphic; Linux) AppleWebKit/537.4 (KHTML, like Gecko) Chrome/48.0 Safari/537.4 HbbTV/1.3.1 (+DRM, QWZY; 00ABCD0;1.1.0;Qwzy;Wired)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Qwzy", "DeviceName": "Qwzy 00ABCD0"}},
		// A platform named with its version in the vendor field stays as
		// it is.
		{"Opera/9.80 (Linux mips; HbbTV/1.2.1 (; Freesat/1.0; qx1000s; 1.0.0; 1.0.0; wired); ce-html/1.0) Presto/2.12.407 Version/12.50",
			brand("Freesat/1.0")},
	})
}

// TestFireTV shows the televisions and players that run Amazon's Fire TV:
// the web apps' "smarttv_<code>_Build_<build>_Chromium_<version>" user
// agent, with the maker and model another maker's set adds to the code,
// and the same addition in the model field of an HbbTV entry, which
// outranks the product tables/amazon_devices.tsv gives the code. The
// builds and models are made up.
func TestFireTV(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"smarttv_AFTMM_Build_123456789_Chromium_59.0.2883.91",
			map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Amazon", "OperatingSystemName": "FireOS",
				"AgentName": "Chromium", "AgentVersion": "59.0.2883.91", "LayoutEngineName": "Blink", "LayoutEngineVersion": "59.0"}},
		{"smarttv_AFTMM-QWZYTEC-QT8000_Build_1234_Chromium_41.0.2250.2",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Qwzytec", "DeviceName": "Qwzytec QT8000", "OperatingSystemName": "FireOS", "AgentName": "Chromium"}},
		{"Mozilla/5.0 (Linux; Andr0id 9; AFTANNA0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.5845.82 Safari/537.36 OPR/46.0.2207.0 OMI/4.24.1.52.AFTdev.551 HbbTV/1.5.1 (+DRM;Amazon;AFTANNA0-QWZYTEC-55QT000;0000;unknown;com.amazon.m7632;)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Qwzytec", "DeviceName": "Qwzytec 55QT000", "OperatingSystemName": "FireOS"}},
	})
}

// TestTVVendorSpellings checks every row of tables/tv_vendors.tsv: a
// television that writes the row's vendor, in capitals as most sets do, in
// its HbbTV entry is a set of the row's brand. The user agent is made up in
// the shape of Vestel's sets.
func TestTVVendorSpellings(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("tv_vendors.tsv", tableColumns["tv_vendors.tsv"]) {
		ua := "Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/53.0.2785.143 Safari/537.36 OPR/40.0.2207.0 OMI/4.9.0.237.DOM3.204 Model/Vestel-MB130 VSTVB MB100 HbbTV/1.4.1 (;" +
			strings.ToUpper(r[0]) + "; MB130; 4.15.0.0_ORION; _TV_G10_2017;) SmartTvA/3.0.0"
		if got := a.Analyze(ua).Get("DeviceBrand"); got != r[1] {
			t.Errorf("vendor %q: brand %q, want %q", r[0], got, r[1])
		}
	}
	// The sets VIDAA runs on for other brands add their builder's or
	// market's code to the brand.
	checkRuleCases(t, []ruleCase{
		// TCL's chassis code written where the vendor would be.
		{"Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.120 Safari/537.36 OPR/46.0.2207.0 OMI/4.20.4.54.Elm.9 HbbTV/1.5.1 (+DRM; TCL00000X;V8-NT00XLA-LF1V000;T000.000.000.0;;) SmartTvA/3.0.0",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "TCL"}},
		{"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.182 Odin/88.4324.2.10 Safari/537.36 Model/Hisense-MT9602 VIDAA/6.0(QWZYTEC_cx;SmartTV;VS0000FD1;MTK9602/V0000.01.00)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Qwzytec"}},
		{"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.182 Odin/88.4324.2.10 Safari/537.36 Model/Hisense-MT9602 VIDAA/6.0(ICONEGOLD;SmartTV;VT0000UC1;MTK9602/V0000.01.00)",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Icone Gold"}},
	})
}

// TestVieraWord shows that Panasonic's "Viera" makes a television only as
// a word of its own: a phone whose model ends with it is a phone.
func TestVieraWord(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 7.0; RIVIERA Q23) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.105 Mobile Safari/537.36",
			map[string]string{"DeviceClass": "Phone"}},
		{"Mozilla/5.0 (X11; FreeBSD; U; Viera; en-GB) AppleWebKit/537.11 (KHTML, like Gecko) Viera/3.10.0 Chrome/23.0.1271.97 Safari/537.11",
			map[string]string{"DeviceClass": "TV"}},
	})
}

// TestTVDeviceExamples checks every row of tables/tv_devices.tsv: its
// example user agent gets the row's class and, where the row names them,
// its maker, device and system.
func TestTVDeviceExamples(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("tv_devices.tsv", tableColumns["tv_devices.tsv"]) {
		got := a.Analyze(r[6])
		for _, c := range []struct{ attr, want string }{
			{"DeviceClass", r[2]}, {"DeviceBrand", r[3]}, {"DeviceName", r[4]}, {"OperatingSystemName", r[5]},
		} {
			if c.want != "-" && got.Get(c.attr) != c.want {
				t.Errorf("%s %s: %s of %q = %q, want %q", r[0], r[1], c.attr, r[6], got.Get(c.attr), c.want)
			}
		}
	}
}

// TestSetTopBoxMakerRows checks every row of tables/set_top_box_makers.tsv:
// a comment entry that starts with the maker's name and a space names a
// box of that maker, with the model that follows. The user agent is made
// up in the shape of the Humax and Arris boxes' browsers.
func TestSetTopBoxMakerRows(t *testing.T) {
	a := New(Options{})
	for _, r := range loadTable("set_top_box_makers.tsv", tableColumns["set_top_box_makers.tsv"]) {
		// The maker and the model after a space or a dash
		// ("Sagemcom-OTT-DTIW384 VF").
		for _, sep := range []string{" ", "-"} {
			ua := "Mozilla/5.0 (X11; Linux armv7l; " + r[1] + sep + "QX100) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/68.0.3440.106 Safari/537.36"
			got := a.Analyze(ua)
			for _, c := range []struct{ attr, want string }{
				{"DeviceClass", "Set-top box"}, {"DeviceBrand", r[1]}, {"DeviceName", r[1] + " QX100"},
			} {
				if got.Get(c.attr) != c.want {
					t.Errorf("maker %q, %q: %s = %q, want %q", r[0], sep, c.attr, got.Get(c.attr), c.want)
				}
			}
		}
	}
}

// TestDuneHDModel shows a Dune HD player's model read from its comment,
// in the lower case Dune HD writes it, after an operator's name and two
// underscores where a build carries one.
func TestDuneHDModel(t *testing.T) {
	dune := func(name string) map[string]string {
		return map[string]string{"DeviceClass": "Set-top box", "DeviceBrand": "Dune HD", "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"DuneHD/1.0 (tv102; Firmware/140904_0400_r11)", dune("Dune HD tv102")},
		{"DuneHD/1.0 (connect; 140223_0132_b6)", dune("Dune HD connect")},
		{"Opera/9.80 (Linux mips; U; xx) Presto/2.10.287 Version/12.00 DuneHD/1.0 (exampletv__tv102; 130527_1328_b5) CE-HTML/1.0", dune("Dune HD tv102")},
		// No model: the maker's box.
		{"DuneHD/1.0", dune("Dune HD")},
		{"DuneHD/1.0 (Linux 2.6; mips)", dune("Dune HD")},
	})
}

// TestTVPlatformTag shows a television's model written after the maker's
// name with a platform tag of one or two capitals between them: the model
// is the code after the tag. Without the maker's name first, the first
// word stays part of the model. The models are made up.
func TestTVPlatformTag(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 9; POLARLINE_WK_40PL99TC-SM Build/PPR2.180905.006.A1; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.158 Safari/537.36",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "PolarLine", "DeviceName": "PolarLine 40PL99TC-SM"}},
		{"Mozilla/5.0 (Linux; Android 9; POLAR_K_P40L99T2SCSM Build/PPR2.180905.006.A1; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.158 Safari/537.36",
			map[string]string{"DeviceClass": "TV", "DeviceBrand": "Polar", "DeviceName": "Polar P40L99T2SCSM"}},
	})
}

// TestTVModelCode shows a television's model code without the colour, the
// board or the panel its maker writes after an underscore, and without the
// batch letter after a last dash; a name in mixed case, and a letter after
// a word, stay. The models are made up.
func TestTVModelCode(t *testing.T) {
	for in, want := range map[string]string{
		"TDTV43BS99U_BK":                 "TDTV43BS99U",
		"TDTV75BS99U_9632":               "TDTV75BS99U",
		"TF-LED40S99T2S_536D400PF33_FHD": "TF-LED40S99T2S",
		"Cinema4K_v01":                   "Cinema4K_v01",
		"AB_123":                         "AB_123",
		"H32F9999Q-f":                    "H32F9999Q",
		"LE-43ZTFS99-F":                  "LE-43ZTFS99",
		"Y-9901-FHD-R":                   "Y-9901-FHD-R",
		"Ab99cd-f":                       "Ab99cd-f",
	} {
		if got := tvModelCode(in); got != want {
			t.Errorf("tvModelCode(%q) = %q, want %q", in, got, want)
		}
	}
}
