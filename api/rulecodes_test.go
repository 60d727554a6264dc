package api

import (
	"slices"
	"strings"
	"testing"
)

// TestRuleCodesAreListed: openapi.yaml's Problem lists every rule code the
// API sends, each once and described, and no other, so a phone reading the
// contract knows every fault it may be told.
func TestRuleCodesAreListed(t *testing.T) {
	t.Parallel()
	doc, _ := loadSpec(t)
	rule := doc.Components.Schemas["Problem"].Value.Properties["rule"].Value
	var listed []string
	for _, v := range rule.Enum {
		listed = append(listed, v.(string))
	}
	sent := []string{ruleRecordedSince}
	for _, rc := range ruleCodes {
		sent = append(sent, rc.code)
	}
	for _, rr := range royaleRules {
		sent = append(sent, rr.code)
	}
	for _, code := range sent {
		if n := strings.Count(rule.Description, "`"+code+"`"); n != 1 {
			t.Errorf("rule code %q is described %d times in openapi.yaml, not once", code, n)
		}
	}
	slices.Sort(listed)
	slices.Sort(sent)
	if !slices.Equal(listed, sent) || len(slices.Compact(slices.Clone(sent))) != len(sent) {
		t.Fatalf("openapi.yaml lists the rule codes %q; the API sends %q, each once", listed, sent)
	}
}
