package cli

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"go/format"
	"go/token"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/schema"
)

// This file is generate-schema's generator: a table description and a
// sample of items in, gofmt'd Go source out. It is pure, so that it is
// tested without a server.

// genConfig is what the user chose.
type genConfig struct {
	Table    string
	TypeName string // "" derives names from the table or the entities
	Package  string
	Partial  bool // the items are not the whole table (--scan-items)
}

// separator is the key separator the generator recognises (the schema
// default); tables written with another Separator get raw keys.
const separator = schema.DefaultSeparator

type item = map[string]types.AttributeValue

// genType is one Go type to emit.
type genType struct {
	Name    string
	Entity  string // "" with raw keys
	marker  string // the entity attribute's value in every sampled item, or ""
	Raw     bool
	Prefix  bool // PrefixSortKey
	Fields  []*genField
	Options []string // schema option expressions after the table name
	Items   int      // items it was inferred from
	Notes   []string // what could not be decided, for the reader (and stderr)
	Parent  *genType // EntityFrom: the type whose partitions hold this one's items
	Rest    bool     // needs the catch-all field for undeclared attributes
}

type genField struct {
	GoName, Attr, GoType string
	Flags                []string
	Comment              string
}

func (t *genType) hasGoName(name string) bool {
	for _, f := range t.Fields {
		if f.GoName == name {
			return true
		}
	}
	return false
}

func (t *genType) field(attr string) *genField {
	for _, f := range t.Fields {
		if f.Attr == attr {
			return f
		}
	}
	return nil
}

// generate writes the source of the types that read the sampled items of
// the described table.
func generate(cfg genConfig, desc *types.TableDescription, items []item) ([]byte, []*genType, error) {
	g := &generator{cfg: cfg, desc: desc, attrTypes: map[string]types.ScalarAttributeType{}}
	for _, d := range desc.AttributeDefinitions {
		g.attrTypes[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	for _, k := range desc.KeySchema {
		if k.KeyType == types.KeyTypeHash {
			g.pk = aws.ToString(k.AttributeName)
		} else {
			g.sk = aws.ToString(k.AttributeName)
		}
	}
	if g.pk == "" {
		return nil, nil, fmt.Errorf("table %s has no partition key in its description", cfg.Table)
	}
	var typesOut []*genType
	if groups, ok := g.entityGroups(items); ok {
		typesOut = g.entityTypes(groups)
	} else {
		typesOut = []*genType{g.rawType(items)}
	}
	if cfg.TypeName != "" {
		if len(typesOut) > 1 {
			var names []string
			for _, t := range typesOut {
				names = append(names, t.Entity)
			}
			sort.Strings(names)
			return nil, nil, fmt.Errorf("the sample holds %d kinds of items (entities %s): --type can name only one; leave it out to name each type after its entity", len(typesOut), strings.Join(names, ", "))
		}
		typesOut[0].Name = cfg.TypeName
	}
	sort.SliceStable(typesOut, func(i, j int) bool { return typesOut[i].Name < typesOut[j].Name })
	uniqueNames(typesOut)
	for _, t := range typesOut {
		if cfg.Partial {
			t.Rest = true
			t.Notes = append(t.Notes, "Inferred from the first items of the table only (--scan-items): other items may hold attributes not declared here; Rest keeps them.")
		}
	}
	for _, t := range typesOut {
		g.indexOptions(t, len(typesOut) == 1)
	}
	src := g.source(typesOut, len(items))
	out, err := format.Source(src)
	if err != nil {
		return nil, nil, fmt.Errorf("generated source does not format (a bug): %w\n%s", err, src)
	}
	return out, typesOut, nil
}

type generator struct {
	cfg       genConfig
	desc      *types.TableDescription
	pk, sk    string
	attrTypes map[string]types.ScalarAttributeType
	imports   map[string]bool
}

// keyText is an attribute value as it appears as one part of a generated
// key (package schema: S as is, N as written, B as base64, BOOL as text).
func keyText(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		return v.Value, true
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value), true
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value), true
	}
	return "", false
}

func sValue(av types.AttributeValue) (string, bool) {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// entityItem is a sampled item split along this library's key layout.
type entityItem struct {
	item    item
	entity  string // the entity attribute's value, else the key prefix
	keyPfx  string // the partition key's entity prefix
	pkParts []string
	skParts []string
	prefix  bool
}

// entityGroup is the items of one shape: the same entity and the same key
// fields.
type entityGroup struct {
	entity   string // the entity name (the entity attribute's value when items carry it)
	keyPfx   string // the partition key's entity prefix (differs for a child)
	prefix   bool
	pkFields []string
	skFields []string
	items    []entityItem
}

// entityGroups splits the sample into groups of items written by this
// library's schemas ("entity#value" partition keys), or reports false when
// the table does not look like one (raw keys).
func (g *generator) entityGroups(items []item) ([]*entityGroup, bool) {
	if len(items) == 0 || g.attrTypes[g.pk] != types.ScalarAttributeTypeS {
		return nil, false
	}
	if g.sk != "" && g.attrTypes[g.sk] != types.ScalarAttributeTypeS {
		return nil, false
	}
	type shapeKey struct {
		entity     string
		keyPfx     string
		npk, nsk   int
		prefix     bool
		prefixKeys string
	}
	var order []shapeKey
	shapes := map[shapeKey][]entityItem{}
	for _, it := range items {
		pk, _ := sValue(it[g.pk])
		parts := strings.Split(pk, separator)
		if len(parts) < 2 || !allNonEmpty(parts) {
			return nil, false
		}
		ei := entityItem{item: it, entity: parts[0], keyPfx: parts[0], pkParts: parts[1:]}
		if m, ok := sValue(it[schema.DefaultEntityAttribute]); ok && m != "" {
			ei.entity = m
		}
		k := shapeKey{entity: ei.entity, keyPfx: ei.keyPfx, npk: len(ei.pkParts)}
		if g.sk != "" {
			sk, _ := sValue(it[g.sk])
			ei.skParts = strings.Split(sk, separator)
			if !allNonEmpty(ei.skParts) {
				return nil, false
			}
			ei.prefix = prefixed(it, ei.skParts)
			k.nsk, k.prefix = len(ei.skParts), ei.prefix
			if ei.prefix {
				var names []string
				for i := 0; i < len(ei.skParts); i += 2 {
					names = append(names, ei.skParts[i])
				}
				k.prefixKeys = strings.Join(names, ",")
			}
		}
		if _, ok := shapes[k]; !ok {
			order = append(order, k)
		}
		shapes[k] = append(shapes[k], ei)
	}
	var groups []*entityGroup
	for _, k := range order {
		eis := shapes[k]
		gr := &entityGroup{entity: k.entity, keyPfx: k.keyPfx, prefix: k.prefix, items: eis}
		used := map[string]bool{g.pk: true, g.sk: true, schema.DefaultEntityAttribute: true}
		gr.pkFields = g.matchParts(eis, k.npk, func(e entityItem) []string { return e.pkParts }, used, "pk_part")
		if g.sk != "" {
			if k.prefix {
				gr.skFields = strings.Split(k.prefixKeys, ",")
			} else {
				gr.skFields = g.matchParts(eis, k.nsk, func(e entityItem) []string { return e.skParts }, used, "sk_part")
			}
		}
		groups = append(groups, gr)
	}
	return groups, true
}

func allNonEmpty(parts []string) bool {
	for _, p := range parts {
		if p == "" {
			return false
		}
	}
	return true
}

// prefixed reports whether a sort key is written with PrefixSortKey:
// "name#value#name#value", each name an attribute of the item holding that
// value.
func prefixed(it item, parts []string) bool {
	if len(parts)%2 != 0 {
		return false
	}
	for i := 0; i < len(parts); i += 2 {
		av, ok := it[parts[i]]
		if !ok {
			return false
		}
		if t, ok := keyText(av); !ok || t != parts[i+1] {
			return false
		}
	}
	return true
}

// matchParts finds, for each key part, the attribute that holds the part's
// value in every item of the group: the field the part was generated from.
// A part no attribute matches gets a synthetic field (recovered from the
// key when items are loaded).
func (g *generator) matchParts(eis []entityItem, n int, parts func(entityItem) []string, used map[string]bool, synth string) []string {
	names := make([]string, n)
	for i := range n {
		var cands []string
		for attr := range eis[0].item {
			if used[attr] {
				continue
			}
			ok := true
			for _, e := range eis {
				t, isKey := keyText(e.item[attr])
				if !isKey || t != parts(e)[i] {
					ok = false
					break
				}
			}
			if ok {
				cands = append(cands, attr)
			}
		}
		sort.Strings(cands)
		if len(cands) > 0 {
			names[i] = cands[0]
		} else {
			names[i] = synth + strconv.Itoa(i+1)
			for used[names[i]] {
				names[i] += "_"
			}
		}
		used[names[i]] = true
	}
	return names
}

func (g *generator) entityTypes(groups []*entityGroup) []*genType {
	perEntity := map[string]int{}    // shapes per entity name
	perPartition := map[string]int{} // shapes per partition-key prefix
	for _, gr := range groups {
		perEntity[gr.entity]++
		perPartition[gr.keyPfx]++
	}
	var out []*genType
	parents := map[string]*genType{} // entity name → its type, for EntityFrom
	for _, gr := range groups {
		t := &genType{Entity: gr.entity, Prefix: gr.prefix, Items: len(gr.items), Name: goName(gr.entity)}
		if perEntity[gr.entity] > 1 {
			t.Name += g.shapeSuffix(gr)
		}
		items := make([]item, len(gr.items))
		for i, e := range gr.items {
			items[i] = e.item
		}
		keyField := func(attr, flag string) {
			f := g.inferField(attr, items, true)
			if !keyGoType(f.GoType) {
				f.GoType, f.Flags = "string", nil
			}
			f.Flags = append([]string{flag}, f.Flags...)
			if _, stored := items[0][attr]; !stored {
				f.Comment = "not stored as an attribute in the sample: recovered from the key; review its name and type"
			}
			t.Fields = append(t.Fields, f)
		}
		for _, a := range gr.pkFields {
			keyField(a, "pk")
		}
		for i, a := range gr.skFields {
			keyField(a, "sk")
			// Several shapes of one entity (parent and child items) tell
			// themselves apart by a constant sort-key field: its default
			// writes it for new items too.
			if v, ok := constantPart(gr, i); ok && perPartition[gr.keyPfx] > 1 && !strings.ContainsAny(v, ",\"`") {
				if f := t.Fields[len(t.Fields)-1]; f.GoType == "string" {
					f.Flags = append(f.Flags, "default="+v)
				}
			}
		}
		g.addAttributes(t, items)
		// The entity name is the entity attribute's value (the key prefix for
		// items written without it, which keep being written without it).
		t.Options = append(t.Options, fmt.Sprintf("schema.EntityName(%q)", gr.entity))
		if markerOf(items) == "" {
			t.Options = append(t.Options, `schema.EntityAttribute("")`)
		}
		if gr.entity == gr.keyPfx && perEntity[gr.entity] == 1 {
			parents[gr.entity] = t
		}
		t.Options = append(t.Options, keyOptions(g, gr)...)
		out = append(out, t)
	}
	// A child (its entity attribute differs from its partition-key prefix)
	// takes the prefix from its parent's schema.
	for i, gr := range groups {
		t := out[i]
		if gr.entity == gr.keyPfx {
			continue
		}
		t.Parent = parents[gr.keyPfx]
		if t.Parent == nil {
			// No schema to take the prefix from: key the type on the prefix
			// and keep the entity attribute as a stored attribute (Rest).
			t.Options = []string{fmt.Sprintf("schema.EntityName(%q)", gr.keyPfx), `schema.EntityAttribute("")`}
			t.Options = append(t.Options, keyOptions(g, gr)...)
			t.Rest = true
			t.Notes = append(t.Notes, fmt.Sprintf("Its items are entity %q in partitions of entity %q, whose own items were not read: keyed with EntityName(%q) and its entity attribute kept in Rest; declare it with EntityFrom of that entity's schema and EntityName(%q).", gr.entity, gr.keyPfx, gr.keyPfx, gr.entity))
		}
	}
	return out
}

// keyOptions declares the key attribute names and layout of gr's items.
func keyOptions(g *generator, gr *entityGroup) []string {
	var opts []string
	if g.pk != "pk" {
		opts = append(opts, fmt.Sprintf("schema.PartitionKeyName(%q)", g.pk))
	}
	if g.sk != "" && g.sk != "sk" {
		opts = append(opts, fmt.Sprintf("schema.SortKeyName(%q)", g.sk))
	}
	if gr.prefix {
		opts = append(opts, "schema.PrefixSortKey()")
	}
	return opts
}

// markerOf returns the entity attribute's value shared by every item, or "".
func markerOf(items []item) string {
	var m string
	for i, it := range items {
		v, ok := it[schema.DefaultEntityAttribute].(*types.AttributeValueMemberS)
		if !ok || (i > 0 && v.Value != m) {
			return ""
		}
		m = v.Value
	}
	return m
}

// constantPart returns the value of sort-key part i when every item of the
// group has the same.
func constantPart(gr *entityGroup, i int) (string, bool) {
	vals := map[string]bool{}
	for _, e := range gr.items {
		if gr.prefix {
			vals[e.skParts[2*i+1]] = true
		} else {
			vals[e.skParts[i]] = true
		}
	}
	if len(vals) != 1 {
		return "", false
	}
	for v := range vals {
		return v, true
	}
	return "", false
}

// shapeSuffix names one of several shapes of an entity: after the constant
// value of its last sort-key field ("kind" = "order" → UserOrder), else after
// its sort-key fields.
func (g *generator) shapeSuffix(gr *entityGroup) string {
	for i := len(gr.skFields) - 1; i >= 0; i-- {
		if v, ok := constantPart(gr, i); ok {
			if n := goName(v); n != "" {
				return n
			}
		}
	}
	s := "By"
	for _, f := range gr.skFields {
		s += goName(f)
	}
	return s
}

// rawType is the one type of a table whose keys are stored as they are.
func (g *generator) rawType(items []item) *genType {
	name := g.cfg.TypeName
	if name == "" {
		name = goName(g.cfg.Table)
	}
	t := &genType{Name: name, Raw: true, Items: len(items)}
	keyField := func(attr, flag string) {
		f := g.inferField(attr, items, true)
		if len(items) == 0 || !g.storedIn(attr, items) || !keyGoType(f.GoType) {
			f.GoType = scalarGoType(g.attrTypes[attr])
			f.Flags = nil
		}
		f.Flags = append([]string{flag}, f.Flags...)
		t.Fields = append(t.Fields, f)
	}
	keyField(g.pk, "pk")
	if g.sk != "" {
		keyField(g.sk, "sk")
	}
	g.addAttributes(t, items)
	t.Options = append(t.Options, "schema.RawKeys()")
	if len(items) > 0 && markerOf(items) == "" {
		t.Options = append(t.Options, `schema.EntityAttribute("")`) // written by other tools
	}
	if len(items) == 0 {
		t.Notes = append(t.Notes, "The table was empty: only its key attributes are declared.")
	}
	return t
}

func (g *generator) storedIn(attr string, items []item) bool {
	for _, it := range items {
		if _, ok := it[attr]; ok {
			return true
		}
	}
	return false
}

// addAttributes declares every other attribute of the items, sorted by
// name. An attribute no field type writes back exactly, and one no struct
// tag can name, is left undeclared and kept by the catch-all field; so is
// the entity attribute, which the schema owns.
func (g *generator) addAttributes(t *genType, items []item) {
	// The entity attribute is the library's own, not a field.
	seen := map[string]bool{g.pk: true, schema.DefaultEntityAttribute: true}
	if g.sk != "" {
		seen[g.sk] = true
	}
	for _, f := range t.Fields {
		seen[f.Attr] = true
	}
	var attrs []string
	for _, it := range items {
		for a := range it {
			if !seen[a] {
				seen[a] = true
				attrs = append(attrs, a)
			}
		}
	}
	sort.Strings(attrs)
	for _, a := range attrs {
		if strings.ContainsAny(a, ",\"`") || a == "-" || a == "" {
			t.Rest = true
			t.Notes = append(t.Notes, fmt.Sprintf("Attribute %q cannot be named in a struct tag: kept in Rest.", a))
			continue
		}
		f := g.inferField(a, items, false)
		if f.GoType == "" {
			t.Rest = true
			t.Notes = append(t.Notes, fmt.Sprintf("Attribute %q %s: no field type writes it back exactly; kept in Rest.", a, f.Comment))
			continue
		}
		if !roundTrips(f, items) {
			t.Rest = true
			t.Notes = append(t.Notes, fmt.Sprintf("Attribute %q: %s does not write back every value read exactly; kept in Rest.", a, f.GoType))
			continue
		}
		t.Fields = append(t.Fields, f)
	}
	if markerOf(items) == "" {
		for _, it := range items {
			if _, ok := it[schema.DefaultEntityAttribute]; ok {
				t.Rest = true // a stray entity attribute the schema does not write
				break
			}
		}
	}
}

// sameItem compares two items as their DynamoDB JSON (deterministic; set
// and list elements in order), which ignores only how the SDK's structs
// hold them (a nil or an empty list).
func sameItem(a, b item) bool {
	ja, err1 := ddbjson.MarshalItem(a)
	jb, err2 := ddbjson.MarshalItem(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// goTypes are the field types inferField picks, for roundTrips.
var goTypes = map[string]reflect.Type{
	"string": reflect.TypeFor[string](), "*string": reflect.TypeFor[*string](),
	"int64": reflect.TypeFor[int64](), "*int64": reflect.TypeFor[*int64](),
	"bool": reflect.TypeFor[bool](), "*bool": reflect.TypeFor[*bool](),
	"time.Time": reflect.TypeFor[time.Time](), "*time.Time": reflect.TypeFor[*time.Time](),
	"codec.Number": reflect.TypeFor[codec.Number](), "[]byte": reflect.TypeFor[[]byte](),
	"map[string]any": reflect.TypeFor[map[string]any](), "[]any": reflect.TypeFor[[]any](),
	"[]float32": reflect.TypeFor[[]float32](), "codec.BinarySet": reflect.TypeFor[codec.BinarySet](),
	"codec.Set[string]": reflect.TypeFor[codec.Set[string]](), "codec.Set[int64]": reflect.TypeFor[codec.Set[int64]](),
	"codec.Set[codec.Number]": reflect.TypeFor[codec.Set[codec.Number]](),
}

// roundTrips reports whether field f, as generated, loads every value of
// its attribute in items and writes it back exactly (and writes nothing
// where the attribute is missing): the generated code must never change
// an item it was generated from.
func roundTrips(f *genField, items []item) bool {
	typ, ok := goTypes[f.GoType]
	if !ok {
		return false
	}
	tag := strings.Join(append([]string{f.Attr}, f.Flags...), ",")
	st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: typ, Tag: reflect.StructTag(`dynamo:` + strconv.Quote(tag))}})
	plan, err := codec.StructOf(st)
	if err != nil {
		return false
	}
	for _, it := range items {
		in := item{}
		if av, ok := it[f.Attr]; ok {
			in[f.Attr] = av
		}
		v := reflect.New(st).Elem()
		if plan.Decode(in, v) != nil {
			return false
		}
		out, err := plan.Encode(v, true)
		if err != nil || !sameItem(out, in) {
			return false
		}
	}
	return true
}

var (
	intRE  = regexp.MustCompile(`^-?[0-9]+$`)
	timeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$`)
)

// timePrecision is the precision= of a fixed-width UTC time text as package
// codec writes it ("" for the default, nanoseconds), or false.
func timePrecision(s string) (string, bool) {
	if !timeRE.MatchString(s) {
		return "", false
	}
	switch len(s) {
	case len("2006-01-02T15:04:05Z"):
		return "s", true
	case len("2006-01-02T15:04:05.000Z"):
		return "ms", true
	case len("2006-01-02T15:04:05.000000Z"):
		return "us", true
	}
	return "", true
}

func fitsInt64(s string) bool {
	if !intRE.MatchString(s) {
		return false
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// inferField picks the Go type of attr from the values the sample holds.
// Types are chosen so that a loaded item writes back the same values: an
// integer N is int64 only when every value fits, other numbers are
// codec.Number (exact), a time is time.Time only when every value has the
// same fixed width.
func (g *generator) inferField(attr string, items []item, key bool) *genField {
	f := &genField{Attr: attr, GoName: goName(attr)}
	kinds := map[string]bool{}
	present, nulls, allInt, allTime, allIntSet := 0, 0, true, true, true
	precisions := map[string]bool{}
	vecLen := -1
	for _, it := range items {
		av, ok := it[attr]
		if !ok {
			continue
		}
		present++
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			kinds["S"] = true
			if p, ok := timePrecision(v.Value); ok {
				precisions[p] = true
			} else {
				allTime = false
			}
		case *types.AttributeValueMemberN:
			kinds["N"] = true
			allInt = allInt && fitsInt64(v.Value)
		case *types.AttributeValueMemberB:
			kinds["B"] = true
		case *types.AttributeValueMemberBOOL:
			kinds["BOOL"] = true
		case *types.AttributeValueMemberNULL:
			nulls++ // NULL says nothing about the type
		case *types.AttributeValueMemberM:
			kinds["M"] = true
		case *types.AttributeValueMemberL:
			kinds["L"] = true
			n := len(v.Value)
			for _, e := range v.Value {
				if _, ok := e.(*types.AttributeValueMemberN); !ok {
					n = -2
				}
			}
			switch {
			case vecLen == -1:
				vecLen = n
			case vecLen != n:
				vecLen = -2
			}
		case *types.AttributeValueMemberSS:
			kinds["SS"] = true
		case *types.AttributeValueMemberNS:
			kinds["NS"] = true
			for _, n := range v.Value {
				allIntSet = allIntSet && fitsInt64(n)
			}
		case *types.AttributeValueMemberBS:
			kinds["BS"] = true
		}
	}
	if !key && (len(kinds) != 1 || nulls > 0) {
		// No field type writes these back as they are: undeclared (GoType
		// ""), for the catch-all; Comment says why.
		switch {
		case len(kinds) > 1:
			var ks []string
			for k := range kinds {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			f.Comment = "holds values of several types (" + strings.Join(ks, ", ") + ")"
		case len(kinds) == 0:
			f.Comment = "holds only NULL"
		default:
			f.Comment = "holds NULL in some items"
		}
		return f
	}
	if len(kinds) != 1 {
		f.GoType = "any"
		return f
	}
	var kind string
	for k := range kinds {
		kind = k
	}
	switch kind {
	case "S":
		f.GoType = "string"
		if allTime && len(precisions) == 1 {
			f.GoType = "time.Time"
			for p := range precisions {
				if p != "" {
					f.Flags = append(f.Flags, "precision="+p)
				}
			}
		}
	case "N":
		f.GoType = "codec.Number"
		if allInt {
			f.GoType = "int64"
		}
	case "B":
		f.GoType = "[]byte"
	case "BOOL":
		f.GoType = "bool"
	case "M":
		f.GoType = "map[string]any"
	case "L":
		f.GoType = "[]any"
		if vi := g.vectorIndexOn(attr); vi != nil && vecLen > 0 && int64(vecLen) == aws.ToInt64(vi.Dimensions) {
			f.GoType = "[]float32"
			f.Flags = append(f.Flags, "dim="+strconv.Itoa(vecLen))
		}
	case "SS":
		f.GoType = "codec.Set[string]"
	case "NS":
		f.GoType = "codec.Set[codec.Number]"
		if allIntSet {
			f.GoType = "codec.Set[int64]"
		}
	case "BS":
		f.GoType = "codec.BinarySet"
	}
	// An attribute some items lack is a pointer, nil when absent, so that
	// loading and writing back an item neither adds it nor drops a zero
	// value another item holds (omitempty would drop 0, "" and false).
	// Numbers, slices, maps and sets have an absent value of their own.
	if present < len(items) && !key {
		switch f.GoType {
		case "string", "int64", "bool", "time.Time":
			f.GoType = "*" + f.GoType
		}
	}
	return f
}

// keyGoType reports whether a key field may have the type.
func keyGoType(t string) bool {
	switch t {
	case "string", "int64", "codec.Number", "[]byte", "bool", "time.Time":
		return true
	}
	return false
}

func scalarGoType(t types.ScalarAttributeType) string {
	switch t {
	case types.ScalarAttributeTypeN:
		return "codec.Number"
	case types.ScalarAttributeTypeB:
		return "[]byte"
	}
	return "string"
}

func (g *generator) vectorIndexOn(attr string) *types.VectorIndexDescription {
	for i, v := range g.desc.VectorIndexes {
		if v.VectorAttribute != nil && aws.ToString(v.VectorAttribute.AttributeName) == attr {
			return &g.desc.VectorIndexes[i]
		}
	}
	return nil
}

// indexOptions declares the table's indexes on t: those whose key
// attributes t has (with one type, missing index attributes are added as
// fields, typed from the table's attribute definitions).
func (g *generator) indexOptions(t *genType, only bool) {
	has := func(attr string) bool {
		if attr == "" || attr == g.pk || attr == g.sk || t.field(attr) != nil {
			return true
		}
		if !only {
			return false
		}
		f := &genField{Attr: attr, GoName: goName(attr), GoType: "any", Flags: []string{"omitempty"},
			Comment: "an index attribute not seen in the sample"}
		if t, ok := g.attrTypes[attr]; ok {
			f.GoType = scalarGoType(t)
		}
		t.Fields = append(t.Fields, f)
		return true
	}
	projection := func(p *types.Projection) string {
		if p == nil {
			return ""
		}
		switch p.ProjectionType {
		case types.ProjectionTypeKeysOnly:
			return ", schema.KeysOnly()"
		case types.ProjectionTypeInclude:
			var attrs []string
			for _, a := range p.NonKeyAttributes {
				if has(a) {
					attrs = append(attrs, strconv.Quote(a))
				}
			}
			if len(attrs) == 0 {
				return ", schema.KeysOnly()" // none of the projected attributes is a field of this type
			}
			return ", schema.Include(" + strings.Join(attrs, ", ") + ")"
		}
		return ""
	}
	keys := func(ks []types.KeySchemaElement) (pk, sk string) {
		for _, k := range ks {
			if k.KeyType == types.KeyTypeHash {
				pk = aws.ToString(k.AttributeName)
			} else {
				sk = aws.ToString(k.AttributeName)
			}
		}
		return pk, sk
	}
	provisioned := g.provisioned()
	if provisioned {
		p := g.desc.ProvisionedThroughput
		t.Options = append(t.Options, fmt.Sprintf("schema.Provisioned(%d, %d)", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits)))
	}
	for _, ix := range g.desc.GlobalSecondaryIndexes {
		var opt string
		if hs, rs := multiKeys(ix.KeySchema); len(hs) > 1 || len(rs) > 1 {
			if !all(hs, has) || !all(rs, has) {
				continue
			}
			opt = fmt.Sprintf("schema.MultiKeyGSI(%q, %s, %s%s", aws.ToString(ix.IndexName), goStrings(hs), goStrings(rs), projection(ix.Projection))
		} else {
			pk, sk := keys(ix.KeySchema)
			if !has(pk) || !has(sk) {
				continue
			}
			opt = fmt.Sprintf("schema.GSI(%q, %q, %q%s", aws.ToString(ix.IndexName), pk, sk, projection(ix.Projection))
		}
		if p := ix.ProvisionedThroughput; provisioned && p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0 {
			tp := g.desc.ProvisionedThroughput
			if aws.ToInt64(p.ReadCapacityUnits) != aws.ToInt64(tp.ReadCapacityUnits) || aws.ToInt64(p.WriteCapacityUnits) != aws.ToInt64(tp.WriteCapacityUnits) {
				opt += fmt.Sprintf(", schema.Throughput(%d, %d)", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits))
			}
		}
		t.Options = append(t.Options, opt+")")
	}
	for _, ix := range g.desc.LocalSecondaryIndexes {
		_, sk := keys(ix.KeySchema)
		if !has(sk) {
			continue
		}
		t.Options = append(t.Options, fmt.Sprintf("schema.LSI(%q, %q%s)", aws.ToString(ix.IndexName), sk, projection(ix.Projection)))
	}
	for _, vi := range g.desc.VectorIndexes {
		attr := aws.ToString(vi.VectorAttribute.AttributeName)
		f := t.field(attr)
		if f == nil && only {
			f = &genField{Attr: attr, GoName: goName(attr), GoType: "[]float32", Comment: "a vector not seen in the sample"}
			t.Fields = append(t.Fields, f)
		}
		if f == nil {
			continue
		}
		dim := fmt.Sprintf("dim=%d", aws.ToInt64(vi.Dimensions))
		if f.GoType != "[]float32" {
			f.GoType, f.Flags = "[]float32", nil
		}
		if !hasFlag(f.Flags, dim) {
			f.Flags = append(f.Flags, dim)
		}
		opt := fmt.Sprintf("schema.VectorIndex(%q, %q", aws.ToString(vi.IndexName), attr)
		switch vi.DistanceFunction {
		case types.VectorDistanceFunctionDotProduct:
			opt += ", schema.DotProduct()"
		case types.VectorDistanceFunctionEuclidean:
			opt += ", schema.Euclidean()"
		}
		var filters []string
		ok := true
		for _, e := range vi.SearchSchema {
			a := aws.ToString(e.AttributeName)
			ok = ok && has(a)
			if e.SearchSchemaElementType == types.SearchSchemaElementTypeHash {
				opt += fmt.Sprintf(", schema.VectorPartition(%q)", a)
			} else {
				filters = append(filters, strconv.Quote(a))
			}
		}
		if !ok {
			continue
		}
		if len(filters) > 0 {
			opt += ", schema.InlineFilters(" + strings.Join(filters, ", ") + ")"
		}
		if p := vi.Projection; p != nil {
			switch p.ProjectionType {
			case types.ProjectionTypeKeysOnly:
				opt += ", schema.KeysOnly()"
			case types.ProjectionTypeInclude:
				var attrs []string
				for _, a := range p.NonKeyAttributes {
					if has(a) {
						attrs = append(attrs, strconv.Quote(a))
					}
				}
				opt += ", schema.Include(" + strings.Join(attrs, ", ") + ")"
			}
		}
		t.Options = append(t.Options, opt+")")
	}
}

func hasFlag(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

func (g *generator) provisioned() bool {
	if s := g.desc.BillingModeSummary; s != nil {
		return s.BillingMode == types.BillingModeProvisioned
	}
	p := g.desc.ProvisionedThroughput
	return p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0
}

func (g *generator) source(ts []*genType, sampled int) []byte {
	var body bytes.Buffer
	g.imports = map[string]bool{"github.com/dynamogo/dynamo/schema": true}
	for _, t := range ts {
		g.writeType(&body, t)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Generated by dynamo generate-schema from table %q (%s).\n", g.cfg.Table, sampledItems(sampled))
	if g.cfg.Partial {
		b.WriteString("// Review it before use: only part of the table was read, and field types are\n")
		b.WriteString("// inferred from the values seen.\n\n")
	} else {
		b.WriteString("// Review it before use: field types are inferred from the values seen.\n\n")
	}
	fmt.Fprintf(&b, "package %s\n\nimport (\n", g.cfg.Package)
	var std, other []string
	for p := range g.imports {
		if strings.Contains(p, ".") {
			other = append(other, p)
		} else {
			std = append(std, p)
		}
	}
	sort.Strings(std)
	sort.Strings(other)
	for _, p := range std {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	if len(std) > 0 {
		b.WriteString("\n")
	}
	for _, p := range other {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	b.WriteString(")\n")
	b.Write(body.Bytes())
	return b.Bytes()
}

func (g *generator) writeType(b *bytes.Buffer, t *genType) {
	uniqueFieldNames(t)
	b.WriteString("\n")
	if t.Raw {
		fmt.Fprintf(b, "// %s is an item of table %q, whose keys are stored as they are (%s).\n", t.Name, g.cfg.Table, sampledItems(t.Items))
	} else {
		fmt.Fprintf(b, "// %s is an item of entity %q in table %q (%s).\n", t.Name, t.Entity, g.cfg.Table, sampledItems(t.Items))
	}
	for _, n := range t.Notes {
		fmt.Fprintf(b, "// %s\n", n)
	}
	fmt.Fprintf(b, "type %s struct {\n", t.Name)
	for _, f := range t.Fields {
		if strings.Contains(f.GoType, "time.") {
			g.imports["time"] = true
		}
		if strings.Contains(f.GoType, "codec.") {
			g.imports["github.com/dynamogo/dynamo/codec"] = true
		}
		if strings.ContainsAny(f.Attr, ",\"`") || f.Attr == "-" || f.Attr == "" {
			fmt.Fprintf(b, "\t// attribute %q cannot be named in a struct tag: read it with a custom type or a raw request\n", f.Attr)
			continue
		}
		tag := strings.Join(append([]string{f.Attr}, f.Flags...), ",")
		fmt.Fprintf(b, "\t%s %s `dynamo:%q`", f.GoName, f.GoType, tag)
		if f.Comment != "" {
			fmt.Fprintf(b, " // %s", f.Comment)
		}
		b.WriteString("\n")
	}
	if t.Rest {
		g.imports["github.com/aws/aws-sdk-go-v2/service/dynamodb/types"] = true
		name := "Rest"
		for n := 2; t.hasGoName(name); n++ {
			name = "Rest" + strconv.Itoa(n)
		}
		fmt.Fprintf(b, "\t%s map[string]types.AttributeValue `dynamo:\",unknown\"` // attributes not declared above, as stored\n", name)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "// %sSchema declares how %s is stored.\n", t.Name, t.Name)
	fmt.Fprintf(b, "var %sSchema = schema.Must[%s](%q", t.Name, t.Name, g.cfg.Table)
	if t.Parent != nil {
		t.Options = append([]string{"schema.EntityFrom(" + t.Parent.Name + "Schema)"}, t.Options...)
	}
	if len(t.Options) == 0 {
		b.WriteString(")\n")
		return
	}
	b.WriteString(",\n")
	for _, o := range t.Options {
		fmt.Fprintf(b, "\t%s,\n", o)
	}
	b.WriteString(")\n")
}

func sampledItems(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}

// goName turns an attribute, entity or table name into an exported Go
// identifier: user_id → UserID, placedAt → PlacedAt, app-orders → AppOrders.
func goName(s string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	n := b.String()
	if n == "" {
		return ""
	}
	if !unicode.IsLetter([]rune(n)[0]) {
		n = "X" + n
	}
	if !token.IsIdentifier(n) {
		return ""
	}
	return n
}

// initialisms Go spells in capitals (the common part of golint's list).
var initialisms = map[string]bool{
	"ID": true, "URL": true, "URI": true, "HTTP": true, "HTTPS": true, "API": true, "ARN": true,
	"JSON": true, "XML": true, "SQL": true, "IP": true, "TTL": true, "UUID": true, "UID": true,
	"SKU": true, "OK": true, "PK": true, "SK": true, "GSI": true, "LSI": true, "CPU": true, "DNS": true, "TLS": true,
}

func uniqueNames(ts []*genType) {
	seen := map[string]int{}
	for _, t := range ts {
		if t.Name == "" {
			t.Name = "Item"
		}
		base := t.Name
		for seen[t.Name] > 0 {
			seen[base]++
			t.Name = base + strconv.Itoa(seen[base])
		}
		seen[t.Name]++
	}
}

func uniqueFieldNames(t *genType) {
	seen := map[string]bool{}
	for i, f := range t.Fields {
		if f.GoName == "" {
			f.GoName = "Field" + strconv.Itoa(i+1)
		}
		base := f.GoName
		for n := 2; seen[f.GoName]; n++ {
			f.GoName = base + strconv.Itoa(n)
		}
		seen[f.GoName] = true
	}
}

// multiKeys lists a key schema's HASH and RANGE attributes in order (a
// multi-attribute GSI key has up to four of each).
func multiKeys(ks []types.KeySchemaElement) (hash, rng []string) {
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			hash = append(hash, aws.ToString(k.AttributeName))
		} else {
			rng = append(rng, aws.ToString(k.AttributeName))
		}
	}
	return hash, rng
}

func all(attrs []string, ok func(string) bool) bool {
	for _, a := range attrs {
		if !ok(a) {
			return false
		}
	}
	return true
}

// goStrings is the Go source of a []string literal; nil when empty.
func goStrings(ss []string) string {
	if len(ss) == 0 {
		return "nil"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}
