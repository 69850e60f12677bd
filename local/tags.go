package local

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
)

// TagResource, UntagResource and ListTagsOfResource on table ARNs
// (API_TagResource.html, API_UntagResource.html,
// API_ListTagsOfResource.html, Tagging.html). Tags are part of the table's
// definition (tableMeta.Tags), persisted with it, in the order first set.
// The checks and their order are the service's: the ARN's shape (a
// malformed one is a ValidationException), the tags, then the table.

type tagIn struct {
	Key   *string
	Value *string
}

var (
	arnShape    = regexp.MustCompile(`^.+:.+:.+:.+:.+:.+/.+$`)
	tableArnRE  = regexp.MustCompile(`^arn:aws:dynamodb:([^:]+):(\d+):table/([^/]{3,})$`)
	errNoArn    = validation("Invalid TableArn")
	errTagLimit = validation("Number of Tags exceed the current limit for the provided ResourceArn")
)

// tagTable resolves a resource ARN to its table, locked for writing when
// write is set (else for reading); the caller unlocks.
// pre runs after the ARN's shape is checked, post after its form (either
// may be nil): the order in which the service reports the request's errors.
func (s *Server) tagTable(action string, arn *string, write bool, pre, post func() error) (*table, error) {
	if arn == nil {
		return nil, errNoArn
	}
	if !arnShape.MatchString(*arn) {
		return nil, errBadArn(*arn)
	}
	if pre != nil {
		if err := pre(); err != nil {
			return nil, err
		}
	}
	m := tableArnRE.FindStringSubmatch(*arn)
	if m == nil {
		return nil, errBadArn(*arn)
	}
	if post != nil {
		if err := post(); err != nil {
			return nil, err
		}
	}
	if m[2] != s.account {
		return nil, s.accessDenied(action, *arn)
	}
	notFound := notFound("Requested resource not found: ResourcArn: " + *arn + " not found")
	if m[1] != s.region {
		return nil, notFound
	}
	var t *table
	var err error
	if write {
		t, err = s.writeTable(nil, m[3])
	} else {
		t, err = s.readTable(nil, m[3])
	}
	if err != nil {
		return nil, notFound
	}
	return t, nil
}

// errBadArn is the answer to a ResourceArn that is no table's ARN, however
// malformed.
func errBadArn(arn string) *Error {
	return validationf("Invalid TableArn: Invalid ResourceArn provided as input %s", arn)
}

func (s *Server) accessDenied(action, resource string) *Error {
	if resource == "" {
		resource = "*"
	}
	return &Error{Type: "AccessDeniedException", Message: "User: arn:aws:iam::" + s.account + ":root is not authorized to perform: dynamodb:" + action + " on resource: " + resource}
}

// tagText is what tag keys and values may hold: letters, white space,
// numbers and + - = . _ : / (TaggingRestrictions.html).
var tagText = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}+\-=._:/]*$`)

// checkTagKey checks a tag key; lengths count Unicode characters
// (TaggingRestrictions.html), not bytes.
func checkTagKey(k *string) error {
	if k == nil || *k == "" || utf8.RuneCountInString(*k) > limits.MaxTagKeyLen || !tagText.MatchString(*k) {
		v := "null"
		if k != nil {
			v = *k
		}
		return validation("The Tag Key provided is invalid, Key: " + v)
	}
	if strings.HasPrefix(*k, "aws:") {
		return validation("Tag Key cannot be prefixed with aws:, Key: " + *k)
	}
	return nil
}

// checkTags validates the tags of TagResource (and CreateTable).
func checkTags(tags []tagIn) error {
	seen := map[string]bool{}
	for _, tg := range tags {
		if err := checkTagKey(tg.Key); err != nil {
			return err
		}
		if tg.Value == nil {
			return validation("The Tag Value provided is invalid, Value: null")
		}
		if utf8.RuneCountInString(*tg.Value) > limits.MaxTagValueLen || !tagText.MatchString(*tg.Value) {
			return validation("The Tag Value provided is invalid, Value: " + *tg.Value)
		}
		if seen[*tg.Key] {
			return validation("Duplicate Tag Keys provided as input: Duplicate Tag Key found " + *tg.Key)
		}
		seen[*tg.Key] = true
	}
	if len(tags) > limits.MaxTags {
		return errTagLimit
	}
	return nil
}

// mergeTags sets tags on cur: new keys are appended, existing ones get the
// new value.
func mergeTags(cur []tagMeta, tags []tagIn) []tagMeta {
	out := append([]tagMeta(nil), cur...)
	for _, tg := range tags {
		found := false
		for i := range out {
			if out[i].Key == *tg.Key {
				out[i].Value, found = *tg.Value, true
				break
			}
		}
		if !found {
			out = append(out, tagMeta{Key: *tg.Key, Value: *tg.Value})
		}
	}
	return out
}

func (s *Server) tagResource(c *call) (any, error) {
	var in struct {
		ResourceArn *string
		Tags        []tagIn
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	t, err := s.tagTable("TagResource", in.ResourceArn, true, func() error {
		if in.Tags == nil {
			var cs constraints
			cs.add(nil, "tags", ruleNotNull)
			return cs.err()
		}
		return nil
	}, func() error {
		if len(in.Tags) == 0 {
			return validation("Atleast one Tag needs to be provided as Input.")
		}
		return checkTags(in.Tags)
	})
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	tags := mergeTags(t.meta.Tags, in.Tags)
	if len(tags) > limits.MaxTags {
		return nil, errTagLimit
	}
	m := t.meta.clone()
	m.Tags = tags
	if err := s.saveMeta(m); err != nil {
		return nil, err
	}
	t.meta = m
	return emptyBody{}, nil
}

func (s *Server) untagResource(c *call) (any, error) {
	var in struct {
		ResourceArn *string
		TagKeys     []*string
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	t, err := s.tagTable("UntagResource", in.ResourceArn, true, func() error {
		if in.TagKeys == nil {
			var cs constraints
			cs.add(nil, "tagKeys", ruleNotNull)
			return cs.err()
		}
		return nil
	}, func() error {
		if len(in.TagKeys) == 0 {
			return validation("Atleast one Tag Key needs to be provided as Input.")
		}
		for _, k := range in.TagKeys {
			if err := checkTagKey(k); err != nil {
				return err
			}
		}
		if len(in.TagKeys) > limits.MaxTags {
			return errTagLimit
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	drop := map[string]bool{}
	for _, k := range in.TagKeys {
		drop[*k] = true
	}
	m := t.meta.clone()
	m.Tags = m.Tags[:0]
	for _, tg := range t.meta.Tags {
		if !drop[tg.Key] {
			m.Tags = append(m.Tags, tg)
		}
	}
	if err := s.saveMeta(m); err != nil {
		return nil, err
	}
	t.meta = m
	return emptyBody{}, nil
}

func (s *Server) listTagsOfResource(c *call) (any, error) {
	var in struct {
		ResourceArn *string
		NextToken   *string
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	t, err := s.tagTable("ListTagsOfResource", in.ResourceArn, false, nil, nil)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	// At most 50 tags: one page always holds them all, so NextToken is
	// never returned and one given is not a position in anything.
	if in.NextToken != nil {
		return nil, validation("Invalid NextToken")
	}
	out := make([]map[string]string, 0, len(t.meta.Tags))
	for _, tg := range t.meta.Tags {
		out = append(out, map[string]string{"Key": tg.Key, "Value": tg.Value})
	}
	return map[string]any{"Tags": out}, nil
}

// createTags validates CreateTable's Tags, which may be empty
// (unlike TagResource's).
func createTags(tags []types.Tag) ([]tagMeta, error) {
	in := make([]tagIn, len(tags))
	for i, tg := range tags {
		in[i] = tagIn{tg.Key, tg.Value}
	}
	if err := checkTags(in); err != nil {
		return nil, err
	}
	return mergeTags(nil, in), nil
}
