package eval

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func resetParseCache() {
	parseCache.mu.Lock()
	clear(parseCache.m)
	parseCache.bytes = 0
	parseCache.mu.Unlock()
}

// The parse cache must not change an answer: every table of checks passes
// with a cold cache and again with the cache its first pass filled.
func TestParseCacheSameAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		test func(*testing.T)
	}{
		{"CompileErrors", TestCompileErrors},
		{"ConditionEval", TestConditionEval},
		{"KeyCondition", TestKeyCondition},
		{"UpdateApply", TestUpdateApply},
		{"Project", TestProject},
		{"CheckKeyPaths", TestCheckKeyPaths},
	} {
		resetParseCache()
		t.Run(tc.name+"/cold", tc.test)
		t.Run(tc.name+"/warm", tc.test)
	}
}

// One cached text serves requests with different names and values: each
// is resolved and checked against its own.
func TestParseCachePerRequestResolution(t *testing.T) {
	resetParseCache()
	text := "#a = :v AND begins_with(sk, :p)"
	item := Item{"x": sv("1"), "y": sv("2"), "sk": sv("order#1")}
	for _, tc := range []struct {
		names names
		vals  vals
		want  bool
		err   string
	}{
		{names{"#a": "x"}, vals{":v": sv("1"), ":p": sv("order#")}, true, ""},
		{names{"#a": "y"}, vals{":v": sv("1"), ":p": sv("order#")}, false, ""},
		{names{"#a": "y"}, vals{":v": sv("2"), ":p": sv("order#")}, true, ""},
		{names{"#b": "y"}, vals{":v": sv("2"), ":p": sv("order#")}, false,
			"Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #a"},
		{names{"#a": "y"}, vals{":v": sv("2")}, false,
			"Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :p"},
		{names{"#a": "y"}, vals{":v": sv("2"), ":p": nv("1")}, false,
			"Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{names{"#a": "x"}, vals{":v": sv("1"), ":p": sv("order#")}, true, ""},
	} {
		c, err := Compile(Input{Condition: &text, Names: tc.names, Values: tc.vals})
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%v %v: error %v, want %q", tc.names, tc.vals, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v %v: %v", tc.names, tc.vals, err)
		}
		if got, _ := c.Condition(item); got != tc.want {
			t.Errorf("%v %v: condition = %v, want %v", tc.names, tc.vals, got, tc.want)
		}
	}
	// A syntax error is cached as well, and answered the same every time,
	// named after the expression it is in.
	bad := "a = = b"
	for range 2 {
		_, err := Compile(Input{Condition: &bad})
		_, ferr := Compile(Input{Filter: &bad})
		if err == nil || !strings.HasPrefix(err.Error(), "Invalid ConditionExpression: Syntax error") ||
			ferr == nil || !strings.HasPrefix(ferr.Error(), "Invalid FilterExpression: Syntax error") {
			t.Errorf("errors %v, %v", err, ferr)
		}
	}
}

// The cache keeps its own copy of a text: a caller may reuse the memory of
// the string it passed.
func TestParseCacheCopiesText(t *testing.T) {
	resetParseCache()
	buf := []byte("SET #n = :v")
	text := unsafe.String(&buf[0], len(buf))
	in := Input{Update: &text, Names: names{"#n": "n"}, Values: vals{":v": sv("x")}}
	if _, err := Compile(in); err != nil {
		t.Fatal(err)
	}
	copy(buf, "SET #m = :w")
	parseCache.mu.RLock()
	p, ok := parseCache.m[parseKey{kindUpdate, "SET #n = :v"}]
	parseCache.mu.RUnlock()
	if !ok || p.update.Set[0].Path[0].Name != "#n" {
		t.Fatalf("cached entry changed with the caller's buffer: %v %+v", ok, p)
	}
	again := "SET #n = :v"
	c, err := Compile(Input{Update: &again, Names: names{"#n": "n"}, Values: vals{":v": sv("x")}})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Update(Item{"pk": sv("1")}, []string{"pk"})
	if err != nil || got["n"].(*types.AttributeValueMemberS).Value != "x" {
		t.Errorf("Update = %v, %v", got, err)
	}
}

// The kept paths of an update have their own copy of what the names stood
// for: a caller may reuse the memory of the names it passed, while an
// earlier request's Compiled is still in use.
func TestDocPathsCopyNames(t *testing.T) {
	resetParseCache()
	text := "SET #n = :v"
	buf := []byte("status")
	in := Input{Update: &text, Names: names{"#n": unsafe.String(&buf[0], len(buf))}, Values: vals{":v": sv("x")}}
	if _, err := Compile(in); err != nil {
		t.Fatal(err)
	}
	c, err := Compile(Input{Update: &text, Names: names{"#n": "status"}, Values: vals{":v": sv("x")}})
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, "stolen")
	got, updated, err := c.Update(Item{"pk": sv("1")}, []string{"pk"})
	if err != nil || got["status"] == nil || len(updated) != 1 || updated[0] != "status" {
		t.Errorf("Update = %v, %v, %v", got, updated, err)
	}
}

// The cache stays within its bounds however many distinct texts it sees.
func TestParseCacheBounded(t *testing.T) {
	resetParseCache()
	long := strings.Repeat("a", 3000)
	for i := range 3 * maxCachedExprs {
		text := "attribute_exists(a" + strconv.Itoa(i) + ")"
		if i%3 == 0 {
			text = "attribute_exists(" + long + strconv.Itoa(i) + ")"
		}
		if _, err := Compile(Input{Condition: &text}); err != nil {
			t.Fatal(err)
		}
	}
	parseCache.mu.RLock()
	n, bytes := len(parseCache.m), parseCache.bytes
	sum := 0
	for k := range parseCache.m {
		sum += len(k.text)
	}
	parseCache.mu.RUnlock()
	if n > maxCachedExprs || bytes > maxCachedExprBytes || sum != bytes || n == 0 {
		t.Errorf("cache holds %d texts, %d bytes (counted %d)", n, bytes, sum)
	}
	// A text longer than DynamoDB allows is not kept.
	huge := "attribute_exists(" + strings.Repeat("b", maxCachedExprLen) + ")"
	Compile(Input{Condition: &huge})
	parseCache.mu.RLock()
	_, kept := parseCache.m[parseKey{kindCondition, huge}]
	parseCache.mu.RUnlock()
	if kept {
		t.Error("an over-long text was cached")
	}
}

// Requests compiling the same and different texts at once (run with -race).
func TestParseCacheConcurrent(t *testing.T) {
	resetParseCache()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				text := "pk = :p AND sk BETWEEN :a AND :b"
				if i%2 == 1 {
					text = "pk = :p AND s" + strconv.Itoa(w*1000+i) + " BETWEEN :a AND :b"
				}
				c, err := Compile(Input{KeyCondition: &text, Values: vals{":p": sv("p"), ":a": sv("a"), ":b": sv("b")}})
				if err != nil || !c.HasKeyCondition() {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Requests sharing one update text with different names at once each get
// their own names' paths, while they replace the kept resolution (run
// with -race).
func TestDocPathsConcurrent(t *testing.T) {
	resetParseCache()
	text := "SET #a = :v"
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			attr := "a" + strconv.Itoa(w)
			for range 300 {
				c, err := Compile(Input{Update: &text, Names: names{"#a": attr}, Values: vals{":v": sv("x")}})
				if err != nil {
					t.Error(err)
					return
				}
				nu, updated, err := c.Update(Item{"pk": sv("1")}, []string{"pk"})
				if err != nil || nu[attr] == nil || len(updated) != 1 || updated[0] != attr {
					t.Errorf("worker %d: %v %v %v", w, nu, updated, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// The node counts of a parse size the slab exactly: resolving the tree
// takes every node it reserved and none beyond.
func TestNodeCountsExact(t *testing.T) {
	n := names{"#a": "a", "#b": "b"}
	v := vals{":v": nv("1"), ":w": nv("2"), ":s": sv("x"), ":l": lv(sv("y")), ":ss": ssv("z"), ":t": sv("S")}
	for _, tc := range []struct {
		kind exprKind
		text string
	}{
		{kindCondition, "#a = :v AND (b.c[1] < :w OR NOT begins_with(#b, :s)) AND x IN (:v, :w, :s)"},
		{kindCondition, "size(#a.b) BETWEEN :v AND :w AND attribute_type(q, :t) AND contains(l, :s)"},
		{kindFilter, "attribute_exists(#a) OR attribute_not_exists(z[0][1].y)"},
		{kindKeyCondition, "pk = :s AND sk BETWEEN :v AND :w"},
		{kindUpdate, "SET #a = if_not_exists(#a, :v) + :w, l = list_append(l, :l), m.n[2] = :s REMOVE #b, o.p ADD c :v DELETE ss :ss"},
		{kindProjection, "#a, #b.c[3].d, e"},
	} {
		p := parseNow(tc.kind, tc.text)
		if p.err != nil {
			t.Fatalf("%s: %v", tc.text, p.err)
		}
		r := &resolver{names: n, values: v}
		r.slab.reserve(p.nodes, 0)
		var err error
		switch tc.kind {
		case kindUpdate:
			_, err = r.updateExpr(p)
		case kindProjection:
			_, err = r.projectionExpr(p)
		default:
			_, err = r.condition(p, "ConditionExpression")
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		s := r.slab
		for what, lc := range map[string][2]int{
			"conds": {len(s.conds), cap(s.conds)}, "operands": {len(s.operands), cap(s.operands)},
			"opPtrs": {len(s.opPtrs), cap(s.opPtrs)}, "condPtrs": {len(s.condPtrs), cap(s.condPtrs)},
			"steps": {len(s.steps), cap(s.steps)},
		} {
			if lc[0] != lc[1] {
				t.Errorf("%s: %s used %d of %d reserved", tc.text, what, lc[0], lc[1])
			}
		}
	}
}

// FuzzParseCache compiles a condition with a cold cache and again with a
// warm one: same error or same result on an item.
func FuzzParseCache(f *testing.F) {
	f.Add("n = :v AND size(l) > :w")
	f.Add("contains(tags, :t) OR NOT s BETWEEN :a AND :b")
	f.Add("attribute_type(#a, :t) AND a = = b")
	f.Fuzz(func(t *testing.T, text string) {
		ns, vs := inputFor(text, "")
		in := Input{Condition: &text, Filter: &text, Names: ns, Values: vs}
		resetParseCache()
		c1, err1 := Compile(in)
		c2, err2 := Compile(in)
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("cold %v, warm %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		item := sampleItem()
		r1, _ := c1.Condition(item)
		r2, _ := c2.Condition(item)
		f1, _ := c1.Filter(item)
		f2, _ := c2.Filter(item)
		if r1 != r2 || f1 != f2 || r1 != f1 {
			t.Fatalf("cold %v/%v, warm %v/%v", r1, f1, r2, f2)
		}
	})
}

// The resolved paths of an update or projection are kept with the parse,
// but a request whose names resolve its placeholders differently, or lack
// one, or send one more, is answered from its own names: the same text
// alternates between answers and errors.
func TestDocPathsFollowNames(t *testing.T) {
	resetParseCache()
	upd, proj := "SET #a = :v, #b = :w", "#a, #b.c"
	item := Item{"pk": sv("1"), "x": sv("0"), "y": mv(map[string]types.AttributeValue{"c": sv("c"), "d": sv("d")})}
	const overlap = "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [x], path two: [x]"
	for range 2 {
		for _, tc := range []struct {
			names names
			want  string // the update's new x and y, or the error
		}{
			{names{"#a": "x", "#b": "y"}, "x=1 y=2"},
			{names{"#a": "y", "#b": "x"}, "x=2 y=1"},
			{names{"#a": "x", "#b": "x"}, overlap},
			{names{"#a": "x"}, "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #b"},
			{names{"#a": "x", "#b": "y", "#c": "z"}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#c}"},
			{names{"#a": "x", "#b": "y"}, "x=1 y=2"},
		} {
			c, err := Compile(Input{Update: &upd, Names: tc.names, Values: vals{":v": sv("1"), ":w": sv("2")}})
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				nu, _, err := c.Update(item, []string{"pk"})
				if err != nil {
					t.Fatal(err)
				}
				got = "x=" + nu["x"].(*types.AttributeValueMemberS).Value + " y=" + nu["y"].(*types.AttributeValueMemberS).Value
			}
			if got != tc.want {
				t.Errorf("update with %v: %s, want %s", tc.names, got, tc.want)
			}
		}
		for _, tc := range []struct {
			names names
			want  []string // attributes projected, or the error
		}{
			{names{"#a": "x", "#b": "y"}, []string{"x", "y"}},
			{names{"#a": "pk", "#b": "y"}, []string{"pk", "y"}},
			{names{"#a": "y", "#b": "y"}, []string{"Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [y], path two: [y, c]"}},
			{names{"#b": "y"}, []string{"Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #a"}},
		} {
			c, err := Compile(Input{Projection: &proj, Names: tc.names})
			var got []string
			if err != nil {
				got = []string{err.Error()}
			} else {
				for k := range c.Project(item) {
					got = append(got, k)
				}
				slices.Sort(got)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("projection with %v: %q, want %q", tc.names, got, tc.want)
			}
		}
	}
}

// A warm Compile of a typical UpdateItem resolves only its values: its
// paths, their tree and their heads come from the parse's last resolution.
func TestCompileUpdateAllocs(t *testing.T) {
	u, c := "SET #s = :s, #t = #t + :d ADD tags :tag REMOVE note", "attribute_exists(pk)"
	in := Input{Update: &u, Condition: &c, Names: names{"#s": "status", "#t": "total"},
		Values: vals{":s": sv("delivered"), ":d": nv("0.44"), ":tag": ssv("late")}}
	if _, err := Compile(in); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { Compile(in) }); n > 10 {
		t.Errorf("Compile: %v allocations, want at most 10", n)
	}
	// A counter's update takes one block for the Compiled, its value and
	// its actions.
	u = "ADD n :one"
	in = Input{Update: &u, Values: vals{":one": nv("1")}}
	if _, err := Compile(in); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { Compile(in) }); n > 1 {
		t.Errorf("Compile of %q: %v allocations, want 1", u, n)
	}
}

// FuzzDocPaths: an update or projection compiled with the resolution its
// text's previous request kept answers as it does from a cold cache, with
// the same names and with every name standing for another attribute.
func FuzzDocPaths(f *testing.F) {
	f.Add("SET #a = :v, #b = :w REMOVE l[0]", "n, m.k, l[1]")
	f.Add("SET #a = :v, #b = :w", "#a, #b")
	f.Add("SET #a = :v REMOVE #b[1], m.k", "l[0], #c")
	f.Fuzz(func(t *testing.T, upd, proj string) {
		ns, vs := inputFor(upd, proj)
		moved := names{}
		for k, v := range ns {
			moved[k] = v + "x"
		}
		if len(moved) == 0 {
			moved = nil
		}
		compile := func(ns names) (string, Item, Item) {
			c, err := Compile(Input{Update: &upd, Projection: &proj, Names: ns, Values: vs})
			if err != nil {
				return err.Error(), nil, nil
			}
			item := sampleItem()
			nu, updated, err := c.Update(item, nil)
			if err != nil {
				return err.Error() + strings.Join(updated, ","), nil, nil
			}
			return strings.Join(updated, ","), c.Project(nu), c.UpdatedAttributes(nu)
		}
		for _, order := range [][]names{{ns, ns}, {ns, moved}, {moved, ns}} {
			resetParseCache()
			compile(order[0])
			warm, wp, wu := compile(order[1])
			resetParseCache()
			cold, cp, cu := compile(order[1])
			if warm != cold || !reflect.DeepEqual(wp, cp) || !reflect.DeepEqual(wu, cu) {
				t.Fatalf("names %v after %v: warm %q %v %v, cold %q %v %v", order[1], order[0], warm, wp, wu, cold, cp, cu)
			}
		}
	})
}

// TestReleaseReuses: a released Compiled's memory serves a later Compile,
// which then answers as a new one, for each size of block; a counter's
// update compiled and released takes no allocation.
func TestReleaseReuses(t *testing.T) {
	item := func() Item { return Item{"pk": sv("k"), "n": nv("5"), "s": sv("x")} }
	for _, tt := range []struct{ update, cond string }{
		{"ADD n :a", ""},
		{"SET s = :b", "n > :a"},
		{"SET s = :b", "n > :a AND s <> :b AND attribute_exists(pk)"},
		{"SET s = :b, n = n + :a", "n > :a AND s <> :b AND attribute_exists(pk) AND size(s) < :a"},
	} {
		var cond *string
		if tt.cond != "" {
			cond = &tt.cond
		}
		compile := func(a, b string) *Compiled {
			t.Helper()
			v := vals{":a": nv(a), ":b": sv(b)}
			if !strings.Contains(tt.update+tt.cond, ":b") {
				delete(v, ":b")
			}
			c, err := Compile(Input{Update: &tt.update, Condition: cond, Values: v})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		compile("1", "y").Release()
		c := compile("2", "z")
		if ok, err := c.Condition(item()); err != nil || !ok {
			t.Fatalf("%q: condition %v, %v", tt.cond, ok, err)
		}
		got, _, err := c.Update(item(), []string{"pk"})
		if err != nil {
			t.Fatal(err)
		}
		want := Item{"pk": sv("k"), "n": nv("5"), "s": sv("x")}
		if strings.Contains(tt.update, "ADD") {
			want["n"] = nv("7")
		} else {
			want["s"] = sv("z")
			if strings.Contains(tt.update, "n + :a") {
				want["n"] = nv("7")
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q after a release: %v, want %v", tt.update, got, want)
		}
		c.Release()
	}
	u := "ADD n :one"
	in := Input{Update: &u, Values: vals{":one": nv("1")}}
	if n := testing.AllocsPerRun(100, func() {
		c, _ := Compile(in)
		c.Release()
	}); n > 0 {
		t.Errorf("Compile and Release of %q: %v allocations, want none", u, n)
	}
}
