package schema

import "testing"

// The expectations are Elixir's Macro.underscore results for the same names.
func TestUnderscore(t *testing.T) {
	for in, want := range map[string]string{
		"Order":       "order",
		"UserProfile": "user_profile",
		"HTTPLog":     "http_log",
		"HTTP":        "http",
		"UserID":      "user_id",
		"SAPExample":  "sap_example",
		"SHA256Hash":  "sha256_hash",
		"Version2":    "version2",
		"Route53Zone": "route53_zone",
		"ABC":         "abc",
		"A":           "a",
		"lowerCase":   "lower_case",
		"Foo_Bar":     "foo__bar", // Macro.underscore keeps both underscores
		"already_ok":  "already_ok",
		"":            "",
	} {
		if got := underscore(in); got != want {
			t.Errorf("underscore(%q) = %q, want %q", in, got, want)
		}
	}
}
