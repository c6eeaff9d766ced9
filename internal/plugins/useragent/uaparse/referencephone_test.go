package uaparse

import "testing"

// TestReferencePhoneModel shows the browsers of makers' reference phones,
// which write the model first ("<model>/<release> Linux/<kernel>
// Android/<version> Release/<date> Browser/..."), on user agents written
// for the test: the model is read as the Android comment's would be, with
// the chipset maker's "sprd-", a maker written twice and the system's
// word after the model taken off, and a prefix row of
// tables/model_prefixes.tsv naming the maker; without the Release product
// the layout is not this one.
func TestReferencePhoneModel(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Phone", "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "Android"}
	}
	const tail = " Linux/2.6.35.7 Android/2.3.5 Release/01.17.2013 Browser/AppleWebKit533.1 (KHTML, like Gecko) Mozilla/5.0 Mobile"
	checkRuleCases(t, []ruleCase{
		{"Examplo-Q999/1.0" + tail, dev("Examplo", "Examplo Q999")},
		{"sprd-Examplo-Q5/1.0" + tail, dev("Examplo", "Examplo Q5")},
		{"EXAMPLO-EXAMPLO_D300/1.0" + tail, dev("Examplo", "Examplo D300")},
		{"K-Touch_T99/TBT972010_8900_V0701" + tail, dev("K-Touch", "K-Touch T99")},
		{"EXAMPLO Q6 Linux/2.6.35.7 Android/4.2.1 Release/10.10.2012 Browser/AppleWebKit533.1 Mobile Safari/533.1", dev("Examplo", "Examplo Q6")},
		{"Examplo-Q999/1.0 Linux/2.6.35.7 Android/2.3.5 Browser/AppleWebKit533.1 Mobile", map[string]string{"DeviceName": "Android Mobile"}},
	})
}

// TestReferencePhoneNetworkTags shows the tags the browsers of reference
// phones add for China Mobile's network ("_TD" for the TD-SCDMA radio,
// "_CMCC" for the carrier) left out of the model, on user agents written
// for the test, and a browser's whole product written into the Android
// comment's model field, with more products after it, cut to its model:
// its release, the system's and the browser's products are no part of the
// device's name; a firmware alone after the model stays, as Yauaa writes
// it.
func TestReferencePhoneNetworkTags(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Phone", "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "Android"}
	}
	const tail = " Linux/3.4.5 Android/4.2.2 Release/05.02.2013 Browser/AppleWebKit534.30 Mobile Safari/534.30"
	checkRuleCases(t, []ruleCase{
		{"EXAMPLO-Q999_TD/1.0" + tail, dev("Examplo", "Examplo Q999")},
		{"Examplo_Q7_CMCC_TD/1.0" + tail, dev("Examplo", "Examplo Q7")},
		{"Philips X999_TD/V1" + tail, dev("Philips", "Philips X999")},
		{"Mozilla/5.0 (Linux; U; Android 4.0.4; zh-cn; SAMSUNG-GT-S7568_TD/1.0 Android/4.0.4 Release/07.15.2012 Browser/AppleWebKit534.30 Build/IMM76D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
			dev("Samsung", "Samsung GT-S7568")},
		{"Mozilla/5.0 (Linux; U; Android 4.0.3; zh-cn; EXAMPLO_Q8_TD/1.0 Android/4.0.3 Release/6.20.2013 Browser/AppleWebKit534.30 Build/MocorDroid4.0.3) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
			dev("Examplo", "Examplo Q8")},
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; EXAMPLO Q7-L10/ExamploQ7-L10C02B129 Browser/Browser/4.4.2) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36",
			dev("Examplo", "Examplo Q7-L10")},
		{"Mozilla/5.0 (Linux; U; Android 4.1.2; nl-be; SAMSUNG GT-I9999N/I9999NXXANI1 Build/JZO54K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
			dev("Samsung", "Samsung GT-I9999N/I9999NXXANI1")},
	})
}

// TestDeviceProduct shows an Android app's own "Device/<Maker>-<Model>"
// product naming the phone, on user agents written for the test, the
// maker written twice or not.
func TestDeviceProduct(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Mobile", "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "Android"}
	}
	checkRuleCases(t, []ruleCase{
		{"ExampleChat/2.18.46 Android/6.0.1 Device/Xiaomi-Redmi_9Z", dev("Xiaomi", "Xiaomi Redmi 9Z")},
		{"ExampleChat/2.17.427 Android/7.0 Device/motorola-Moto_Q_Plus", dev("Motorola", "Motorola Moto Q Plus")},
		{"ExampleChat/2.18.65 Android/6.0 Device/EXAMPLO-EXAMPLO_H9", dev("Examplo", "Examplo H9")},
	})
}

// TestWAPMakerModel shows a feature phone's WAP browser naming a maker the
// brands table does not know in its first product, on user agents written
// for the test, and the Java profile ("MIDP-2.0") never taken for a
// model.
func TestWAPMakerModel(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Mobile", "DeviceBrand": brand, "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"Examplo-CA9/1.0 UP.Browser/6.2.2.5 (GUI) MMP/1.0", dev("Examplo", "Examplo CA9")},
		{"EXAMPLO-myQ-55/2.0 Profile/MIDP-2.0 Configuration/CLDC-1.0 UP.Browser/6.2.2.6.d.3.100 (GUI) MMP/1.0", dev("Examplo", "Examplo MYQ-55")},
		{"Examplo_Coffee/ObigoInternetBrowser/QO3C Profile/MIDP2.0 Configuration/CLDC-1.1", dev("Examplo", "Examplo Coffee")},
		{"SIE-S99/16 UP.Browser/6.1.0.5.c.4 (GUI) MMP/1.0", dev("Siemens", "Siemens SIE-S99")},
		{"EXAMPLO-q511X-orange/1.0/ MIDP-2.0 Configuration/CLDC-1.1 Browser/UP.Browser/7.2.6.c.1.393 (GUI)", dev("Examplo", "Examplo Q511X-Orange")},
	})
}

// TestFeaturePhoneProductModel shows a feature phone of a maker of
// tables/brands.tsv naming its model in its first product, on user agents
// written for the test: a last word that is no browser belongs to the
// model, the Java profile where the version would be names no browser,
// and a maker that writes its firmware after the model behind dots has
// the model between the first two.
func TestFeaturePhoneProductModel(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Mobile", "DeviceBrand": brand, "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{"SAMSUNG GT-S9999 Opera/9.80 (J2ME/MIDP; Opera Mini/7.1.32840/37.7936; U; en) Presto/2.12.423 Version/12.16", dev("Samsung", "Samsung GT-S9999")},
		{"LAVA KKT Ruby/MIDP-2.0 Configuration/CLDC-1.1/Screen-240x320", dev("Lava", "Lava KKT Ruby")},
		{"T-Mobile Examplo Touch II/5.0  Obigo/Q03C  Profile/MIDP-2.0 Configuration/CLDC-1.1", dev("T-Mobile", "T-Mobile Examplo Touch II")},
		{"LAVA.DISCOVER99.R016_V01 (MRE/3.1.00(2048);MAUI/Discover99_S119_20131010;BDATE/2013/10/10 22:24;LCD/320480;CHIP/MT6260)", dev("Lava", "Lava DISCOVER99")},
		{"LAVA.KKT OPAL.LEGEND61D_11C_HW_V02 (MRE/3.1.00(1);MAUI/KKT_Opal_S107_20170206;BDATE/2017/02/06 11:15;LCD/240320;CHIP/MT6260)", dev("Lava", "Lava KKT Opal")},
	})
}

// TestWAPBrowserSlot shows a feature phone's WAP browser written where a
// version would be ("Browser/NetFront/3.5") naming the agent, and NetFront
// its engine, at the version that follows, on user agents written for the
// test.
func TestWAPBrowserSlot(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Examplo-Q99i/R1x Browser/NetFront/3.5 Profile/MIDP-2.1 Configuration/CLDC-1.1",
			map[string]string{"DeviceClass": "Mobile", "AgentName": "Netfront", "AgentVersionMajor": "3", "LayoutEngineName": "Netfront", "LayoutEngineVersionMajor": "3"}},
		{"Examplo-Q98i/R1x Browser/NetFront/3.4 Profile/MIDP-2.1 Configuration/CLDC-1.1 JavaPlatform/JP-8.4",
			map[string]string{"AgentName": "Netfront", "AgentVersionMajor": "3"}},
	})
}

// TestNamedBrowserWord shows a browser whose own word ends in "browser"
// named by that word, not by the word of another product before it, while
// a maker's name before a separate "Browser" stays part of the name, on
// user agents written for the test.
func TestNamedBrowserWord(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux armv7i; CE-HTML/1.0; U; en) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36 EXAMPLEMMH Tbrowser/2.0",
			map[string]string{"AgentName": "Tbrowser", "AgentVersionMajor": "2"}},
		{"Mozilla/5.0 (Linux; U; Android 4.0.4; en-us) AppleWebKit/534.30 (KHTML, like Gecko) Examplo Browser/3.1 Mobile Safari/534.30",
			map[string]string{"AgentName": "Examplo Browser", "AgentVersionMajor": "3"}},
	})
}

// TestModelAfterAppComment shows an Android app that writes the maker and
// the model after its comment, with the release after a bare "Android"
// inside it, on user agents written for the test: the release is the
// system's version and never the model.
func TestModelAfterAppComment(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"ExampleMusic/5.4.21.97 (Android; 7.1.1; Mobile; fr) WIKO Q999 Lite",
			map[string]string{"DeviceBrand": "Wiko", "DeviceName": "Wiko Q999 Lite", "OperatingSystemName": "Android", "OperatingSystemVersion": "7.1.1"}},
		{"ExampleMusic/5.4.19.9 (Android; 8.1.0; Mobile; fr) Examplo Alpha",
			map[string]string{"DeviceBrand": "Examplo", "DeviceName": "Examplo Alpha", "OperatingSystemVersion": "8.1.0"}},
		{"ExampleMusic/5.4.19.9 (Android; 8.1.0; Mobile; fr)",
			map[string]string{"DeviceName": "Android Mobile", "OperatingSystemVersion": "8.1.0"}},
	})
}

// TestAppPlatformWord shows an app that names its platform in its own
// product, where the version would be or after its name, on user agents
// written for the test; one with a comment is not read so (here a robot's
// address).
func TestAppPlatformWord(t *testing.T) {
	ios := map[string]string{"DeviceClass": "Mobile", "DeviceBrand": "Apple", "DeviceName": "Apple iOS Device", "OperatingSystemName": "iOS"}
	android := map[string]string{"DeviceClass": "Mobile", "OperatingSystemName": "Android"}
	checkRuleCases(t, []ruleCase{
		{"ExampleCasts/iOS", ios},
		{"ExampleCasts/iOS-2.0", ios},
		{"ExampleCasts.iOS / 3.5.4", ios},
		{"ExampleCasts/android-2.2", android},
		{"ExampleCasts/android/1.11.12", android},
		{"ExampleCasts/iOS-2.0 (+https://example.org/bot)", map[string]string{"DeviceClass": "Robot", "OperatingSystemName": "Cloud"}},
	})
}

// TestNoModelAfterEngineComment shows that words after a comment that does
// not name Android are not taken for the model, on a user agent written
// for the test.
func TestNoModelAfterEngineComment(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome Mobile",
			map[string]string{"DeviceName": "Android Mobile", "DeviceBrand": "Unknown"}},
	})
}

// TestReferencePhoneBrowser shows the stock browser of a reference phone,
// which sends no Safari token ("Browser/AppleWebKit534.30"), on user
// agents written for the test: the Stock Android Browser at the system's
// version, not the model in front.
func TestReferencePhoneBrowser(t *testing.T) {
	stock := func(v string) map[string]string {
		return map[string]string{"AgentClass": "Browser", "AgentName": "Stock Android Browser", "AgentVersion": v}
	}
	checkRuleCases(t, []ruleCase{
		{"MT6999/V1 Linux/3.4.5 Android/4.2.2 Release/04.23.2014 Browser/AppleWebKit534.30 Profile/MIDP-2.0 Configuration/CLDC-1.1", stock("4.2.2")},
		{"Examplo-Q300/1.0 Linux/2.6.35.7 Android/2.3.5 Release/02.18.2013 Browser/AppleWebKit533.1 (KHTML, like Gecko) Mozilla/5.0 Mobile", stock("2.3.5")},
	})
}

// TestMAUIBrowser shows MediaTek's feature phones, on user agents written
// for the test: the agent is their built-in WAP browser, not the board or
// model in front; Opera Mini on such a phone names itself.
func TestMAUIBrowser(t *testing.T) {
	maui := map[string]string{"AgentClass": "Browser", "AgentName": "MAUI WAP Browser"}
	checkRuleCases(t, []ruleCase{
		{"EXAMPLO61M_11C_HW (MRE/3.1.00(64);MAUI/_Q9_EXAMPLO_P11_20180721;BDATE/2018/07/21 11:50;LCD/240320;CHIP/MT6261;KEY/Normal;TOUCH/0;CAMERA/1;SENSOR/0;DEV/EXAMPLO61M_11C_HW;WAP Browser/MAUI (HTTP PGDL;HTTPS);GMOBI/001;MBOUNCE/002;MOMAGIC/003;INDEX/004;SPICEI2I/005;GAMELOFT/006;) Y3389_12B_HW",
			maui},
		{"Examplo X999/Q03C MAUI-Browser Profile/MIDP-2.0 Configuration/CLDC-1.1", maui},
		{"Opera/9.80 (MAUI Runtime; Opera Mini/4.4.39010/37.7936; U; nl) Presto/2.12.423 Version/12.16",
			map[string]string{"AgentName": "Opera Mini"}},
	})
}

// TestMakerInBuild shows the phones other makers sell on Huawei's designs,
// with Huawei's model codes, named after the maker their build writes
// before the model, as Huawei's own builds do, on user agents written for
// the test; Huawei's own build keeps Huawei.
func TestMakerInBuild(t *testing.T) {
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Phone", "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "Android"}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 11; GAR-AN99 Build/WIKOGAR-AN99; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/88.0.4324.93 Mobile Safari/537.36",
			dev("Wiko", "Wiko GAR-AN99")},
		{"Mozilla/5.0 (Linux; Android 10; ELS-AN99 Build/HUAWEIELS-AN99; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/88.0.4324.93 Mobile Safari/537.36",
			dev("Huawei", "Huawei ELS-AN99")},
	})
}

// TestMAUIBuildMaker shows a MediaTek feature phone named by the maker and
// model its firmware build writes after "MAUI/", on user agents written for
// the test: the product in front is the board; a maker the brands table
// does not know names nothing, and a version where the model would be
// leaves the maker alone.
func TestMAUIBuildMaker(t *testing.T) {
	const head, tail = "EXAMPLO61M_11C_HW (MRE/3.1.00(64);MAUI/", ";BDATE/2018/07/21 11:50;LCD/240320;CHIP/MT6261;KEY/Normal;TOUCH/0;CAMERA/1;SENSOR/0;DEV/EXAMPLO61M_11C_HW;WAP Browser/MAUI (HTTP PGDL;HTTPS);) Q03C1-2.40 en-US"
	dev := func(brand, name string) map[string]string {
		return map[string]string{"DeviceClass": "Mobile", "DeviceBrand": brand, "DeviceName": name}
	}
	checkRuleCases(t, []ruleCase{
		{head + "_T19A_MAXVI_P99_MTK6261D_V02_20180721" + tail, dev("MAXVI", "MAXVI P99")},
		{head + "XB59_ARTEL_V9_V06_170621_MP" + tail, dev("Artel", "Artel V9")},
		{head + "_DE33781-EXPLAY-FIN_L104" + tail, dev("Explay", "Explay FIN")},
		{head + "_Q9_EXAMPLO_P11_20180721" + tail, map[string]string{"DeviceBrand": "Unknown"}},
		{head + "ARTEL_V07_20171117_MP" + tail, dev("Artel", "Artel")},
	})
}

// TestWindowsMobileTrailer shows a Windows Mobile phone's maker and model
// after the browser's comment, on user agents written for the test: a
// maker of tables/brands.tsv names the device.
func TestWindowsMobileTrailer(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows CE; IEMobile 7.6) PPC; 240x320; GIGABYTE-MS999",
			map[string]string{"DeviceClass": "Mobile", "DeviceBrand": "Gigabyte", "DeviceName": "Gigabyte MS999"}},
	})
}
