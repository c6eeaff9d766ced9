package uaparse

import "testing"

// TestAmazonDevices shows rows of tables/amazon_devices.tsv (Yauaa's
// AmazonDeviceTags lookup) reaching the answer, on user agents written for
// the test in the shape Fire OS browsers send (model code, then
// "Build/..."), and a code the table does not list, which keeps the
// class its prefix implies. Words of three letters or fewer are written in
// capitals, as in every device name ("Max" is "MAX", "Gen" is "GEN").
func TestAmazonDevices(t *testing.T) {
	dev := func(class, brand, name string) map[string]string {
		return map[string]string{"DeviceClass": class, "DeviceBrand": brand, "DeviceName": name, "OperatingSystemName": "FireOS"}
	}
	checkRuleCases(t, []ruleCase{
		{"Mozilla/5.0 (Linux; Android 11; AFTKA Build/RS8101.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Mobile Safari/537.36",
			dev("Set-top box", "Amazon", "Amazon Fire TV Stick 4K MAX-1ST GEN (2021)")},
		{"Mozilla/5.0 (Linux; Android 9; KFMAWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/100.1.1 like Chrome/100.0.4896.127 Safari/537.36",
			dev("Tablet", "Amazon", "Amazon Fire HD 10 (9TH GEN-2019)")},
		// A television of another maker that runs Fire OS: the maker is
		// the brand, and its name is not repeated.
		{"Mozilla/5.0 (Linux; Android 9; AFTDCT31 Build/PS7624) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.92 Mobile Safari/537.36",
			dev("TV", "Toshiba", "Toshiba 4K UHD-Fire TV (2020)")},
		// The product name without the brand gets it in front.
		{"Mozilla/5.0 (Linux; Android 9; AEOCN) AppleWebKit/537.36 (KHTML, like Gecko) Silk/98.2.1 like Chrome/98.0.4758.136 Safari/537.36",
			dev("Smart Display", "Amazon", "Amazon Echo Show 5-2ND GEN (2021)")},
		// A model code the table does not list keeps its prefix's class.
		{"Mozilla/5.0 (Linux; Android 11; AFTZZZ Build/RS8101.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Mobile Safari/537.36",
			dev("Set-top box", "Amazon", "Amazon Aftzzz")},
	})
}
