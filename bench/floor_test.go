package bench

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

// The floor: the Order and the Nested item encoded into exactly the
// map[string]types.AttributeValue that codec.MarshalItem returns, by
// hand-written code for these two types alone: no plan, no reflection, no
// closures, fields read directly, every map made with its exact size, and
// all of an item's members, slices and text in one struct handed out from a
// slab of them. An encoder producing this result type can hardly do less
// (the maps, their entries and the members' bytes are the result itself),
// so attributevalue's time over the floor's bounds the ratio any such
// encoder can reach. The floor handles the values
// these items hold (times in years 0000–9999, decimals of up to 18 digits,
// plain floats); TestFloorSameItems holds it to codec.MarshalItem.

// orderMembers is everything an encoded Order points at, besides its map.
type orderMembers struct {
	userID, placedAt, orderID, status types.AttributeValueMemberS
	total, version                    types.AttributeValueMemberN
	tags                              types.AttributeValueMemberSS
	tagv                              [3]string
	text                              [40]byte
}

// lineMembers is one encoded Line's members, besides its map.
type lineMembers struct {
	m          types.AttributeValueMemberM
	sku        types.AttributeValueMemberS
	qty, price types.AttributeValueMemberN
	text       [8]byte
}

// nestedMembers is everything an encoded Nested points at, besides its
// maps and lines: room for exactly the lists, sets and maps of the
// benchmark's item (more is allocated apart), so that no byte is wasted.
type nestedMembers struct {
	id                types.AttributeValueMemberS
	lines, history    types.AttributeValueMemberL
	attrs, ship       types.AttributeValueMemberM
	scores            types.AttributeValueMemberNS
	labels            types.AttributeValueMemberSS
	street, city, zip types.AttributeValueMemberS
	active            types.AttributeValueMemberBOOL
	linev             [3]types.AttributeValue
	attrv             [3]types.AttributeValueMemberS
	scorev            [4]string
	labelv            [2]string
	historyv          [6]types.AttributeValue
	historyN          [6]types.AttributeValueMemberN
	text              [16]byte
}

// floorSlab hands out members structs from a run of them filling one
// size class of 8 KiB, so that an item costs a fraction of an allocation
// and no byte is rounded up.
type floorSlab[T any] struct {
	buf  []T
	next int
}

const floorSlabBytes = 8192

func (s *floorSlab[T]) take() *T {
	if s.next == len(s.buf) {
		var zero T
		s.buf, s.next = make([]T, floorSlabBytes/unsafe.Sizeof(zero)), 0
	}
	p := &s.buf[s.next]
	s.next++
	return p
}

// textBuf appends into a fixed array and turns what was appended into
// strings that share it.
type textBuf struct {
	b []byte
}

func (t *textBuf) str(from int) string {
	return unsafe.String(&t.b[from], len(t.b)-from)
}

type floorEncoder struct {
	orders  floorSlab[orderMembers]
	nesteds floorSlab[nestedMembers]
	lines   floorSlab[lineMembers]
}

var errFloor = errors.New("value outside what the floor encodes")

func (e *floorEncoder) order(o *Order) (map[string]types.AttributeValue, error) {
	mb := e.orders.take()
	m := make(map[string]types.AttributeValue, 7)
	t := textBuf{mb.text[:0]}

	mb.userID.Value = o.UserID
	m["user_id"] = &mb.userID

	var ok bool
	if t.b, ok = floorTime(t.b, o.PlacedAt); !ok {
		return nil, errFloor
	}
	mb.placedAt.Value = t.str(0)
	m["placed_at"] = &mb.placedAt

	mb.orderID.Value = o.OrderID
	m["order_id"] = &mb.orderID

	at := len(t.b)
	if t.b, ok = floorDecimal(t.b, o.Total); !ok {
		return nil, errFloor
	}
	mb.total.Value = t.str(at)
	m["total"] = &mb.total

	mb.status.Value = o.Status
	m["status"] = &mb.status

	mb.version.Value = floorInt(&t, int64(o.Version))
	m["version"] = &mb.version

	if len(o.Tags) > 0 {
		mb.tags.Value = floorStringSet(mb.tagv[:0], o.Tags)
		m["tags"] = &mb.tags
	}
	return m, nil
}

func (e *floorEncoder) nested(n *Nested) (map[string]types.AttributeValue, error) {
	mb := e.nesteds.take()
	m := make(map[string]types.AttributeValue, 8)
	t := textBuf{mb.text[:0]}

	mb.id.Value = n.ID
	m["id"] = &mb.id

	if n.Lines != nil {
		lv := mb.linev[:0]
		if len(n.Lines) > len(mb.linev) {
			lv = make([]types.AttributeValue, 0, len(n.Lines))
		}
		for i := range n.Lines {
			l := &n.Lines[i]
			lm := e.lines.take()
			lt := textBuf{lm.text[:0]}
			mm := make(map[string]types.AttributeValue, 3)
			lm.sku.Value = l.SKU
			mm["sku"] = &lm.sku
			lm.qty.Value = floorInt(&lt, int64(l.Qty))
			mm["qty"] = &lm.qty
			at := len(lt.b)
			var ok bool
			if lt.b, ok = floorFloat(lt.b, l.Price); !ok {
				return nil, errFloor
			}
			lm.price.Value = lt.str(at)
			mm["price"] = &lm.price
			lm.m.Value = mm
			lv = append(lv, &lm.m)
		}
		mb.lines.Value = lv[:len(lv):len(lv)]
		m["lines"] = &mb.lines
	}

	if n.Attrs != nil {
		am := make(map[string]types.AttributeValue, len(n.Attrs))
		i := 0
		for k, v := range n.Attrs {
			var s *types.AttributeValueMemberS
			if i < len(mb.attrv) {
				s = &mb.attrv[i]
			} else {
				s = new(types.AttributeValueMemberS)
			}
			i++
			s.Value = v
			am[k] = s
		}
		mb.attrs.Value = am
		m["attrs"] = &mb.attrs
	}

	if len(n.Scores) > 0 {
		mb.scores.Value = floorIntSet(mb.scorev[:0], n.Scores, &t)
		m["scores"] = &mb.scores
	}
	if len(n.Labels) > 0 {
		mb.labels.Value = floorStringSet(mb.labelv[:0], n.Labels)
		m["labels"] = &mb.labels
	}

	sm := make(map[string]types.AttributeValue, 3)
	mb.street.Value = n.Ship.Street
	sm["street"] = &mb.street
	mb.city.Value = n.Ship.City
	sm["city"] = &mb.city
	mb.zip.Value = n.Ship.Zip
	sm["zip"] = &mb.zip
	mb.ship.Value = sm
	m["ship"] = &mb.ship

	if n.History != nil {
		hv := mb.historyv[:0]
		if len(n.History) > len(mb.historyv) {
			hv = make([]types.AttributeValue, 0, len(n.History))
		}
		for i, h := range n.History {
			var x *types.AttributeValueMemberN
			if i < len(mb.historyN) {
				x = &mb.historyN[i]
			} else {
				x = new(types.AttributeValueMemberN)
			}
			x.Value = floorInt(&t, h)
			hv = append(hv, x)
		}
		mb.history.Value = hv[:len(hv):len(hv)]
		m["history"] = &mb.history
	}

	mb.active.Value = n.Active
	m["active"] = &mb.active
	return m, nil
}

// floorInt is n in decimal: strconv's constant text below 100, else
// written into t (or allocated, when t is full).
func floorInt(t *textBuf, n int64) string {
	if 0 <= n && n < 100 {
		return strconv.FormatInt(n, 10)
	}
	if cap(t.b)-len(t.b) < 20 {
		return strconv.FormatInt(n, 10)
	}
	at := len(t.b)
	t.b = strconv.AppendInt(t.b, n, 10)
	return t.str(at)
}

// floorStringSet sorts a small set's strings by insertion into dst.
func floorStringSet(dst []string, s codec.Set[string]) []string {
	if len(s) > cap(dst) {
		dst = make([]string, 0, len(s))
	}
	for k := range s {
		i := len(dst)
		dst = append(dst, k)
		for ; i > 0 && dst[i-1] > k; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = k
	}
	return dst[:len(dst):len(dst)]
}

// floorIntSet sorts a small set's numbers on the stack and writes their
// text into dst.
func floorIntSet(dst []string, s codec.Set[int], t *textBuf) []string {
	var buf [16]int
	v := buf[:0]
	for k := range s {
		i := len(v)
		v = append(v, k)
		for ; i > 0 && v[i-1] > k; i-- {
			v[i] = v[i-1]
		}
		v[i] = k
	}
	if len(v) > cap(dst) {
		dst = make([]string, 0, len(v))
	}
	for _, x := range v {
		dst = append(dst, floorInt(t, int64(x)))
	}
	return dst[:len(dst):len(dst)]
}

// floorTime writes t in UTC with nine fraction digits, as the codec does,
// from its Unix seconds, straight into b's free room (thirty bytes).
func floorTime(b []byte, t time.Time) ([]byte, bool) {
	const minUnix, maxUnix = -62167219200, 253402300800
	sec := t.Unix()
	if sec < minUnix || sec >= maxUnix || cap(b)-len(b) < 30 {
		return b, false
	}
	since := uint64(sec - minUnix)
	// Days since 0000-03-01 plus one era, as in Howard Hinnant's civil_from_days.
	z := uint(since/86400) - 60 + 146097
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	mo := mp + 3
	if mo > 12 {
		mo -= 12
	}
	y := yoe + (era-1)*400
	if mo <= 2 {
		y++
	}
	clock := uint(since % 86400)
	ns := uint(t.Nanosecond())
	a := (*[30]byte)(b[len(b) : len(b)+30])
	copy(a[0:], pairs[2*(y/100):][:2])
	copy(a[2:], pairs[2*(y%100):][:2])
	a[4] = '-'
	copy(a[5:], pairs[2*mo:][:2])
	a[7] = '-'
	copy(a[8:], pairs[2*d:][:2])
	a[10] = 'T'
	copy(a[11:], pairs[2*(clock/3600):][:2])
	a[13] = ':'
	copy(a[14:], pairs[2*(clock/60%60):][:2])
	a[16] = ':'
	copy(a[17:], pairs[2*(clock%60):][:2])
	a[19] = '.'
	hi, lo := ns/100000, ns%100000
	copy(a[20:], pairs[2*(hi/100):][:2])
	copy(a[22:], pairs[2*(hi%100):][:2])
	a[24] = byte('0' + lo/10000)
	copy(a[25:], pairs[2*(lo%10000/100):][:2])
	copy(a[27:], pairs[2*(lo%100):][:2])
	a[29] = 'Z'
	return b[:len(b)+30], true
}

// pairs holds the two digits of 00 to 99.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// floorDecimal writes a decimal of up to 18 digits in the codec's
// canonical form (no trailing fraction zeros), for exponents from -18 to 0.
func floorDecimal(b []byte, d decimal.Decimal) ([]byte, bool) {
	if d.NumDigits() > 18 {
		return b, false
	}
	c, exp := d.CoefficientInt64(), int(d.Exponent())
	if c == 0 {
		return append(b, '0'), true
	}
	for exp < 0 && c%10 == 0 {
		c /= 10
		exp++
	}
	if exp > 0 || exp < -18 {
		return b, false
	}
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	var db [20]byte
	digits := strconv.AppendInt(db[:0], c, 10)
	return floorPoint(b, digits, -exp), true
}

// floorPoint appends digits with a decimal point before the last frac of
// them, zeros filling in between the point and the digits.
func floorPoint(b, digits []byte, frac int) []byte {
	whole := len(digits) - frac
	switch {
	case frac == 0:
		return append(b, digits...)
	case whole > 0:
		b = append(b, digits[:whole]...)
		b = append(b, '.')
		return append(b, digits[whole:]...)
	}
	b = append(b, '0', '.')
	for range -whole {
		b = append(b, '0')
	}
	return append(b, digits...)
}

var floorPow10 = [...]float64{1, 10, 100, 1000, 10000}

// floorFloat writes a float64 that is the nearest to a decimal of up to
// four fraction digits by finding that decimal, any other float in plain
// range with strconv, as the codec does.
func floorFloat(b []byte, f float64) ([]byte, bool) {
	if f == 0 {
		return append(b, '0'), true
	}
	a := math.Abs(f)
	for k, p := range floorPow10 {
		x := a * p
		if x >= 1<<40 {
			break
		}
		n := math.Round(x)
		if n == 0 || n/p != a {
			continue
		}
		if f < 0 {
			b = append(b, '-')
		}
		var db [20]byte
		return floorPoint(b, strconv.AppendUint(db[:0], uint64(n), 10), k), true
	}
	if a >= 1e-7 && a < 1e21 && !math.IsInf(f, 0) {
		return strconv.AppendFloat(b, f, 'f', -1, 64), true
	}
	return b, false
}

// The floor must build the very result the codec builds, or its ratio
// bounds nothing.
func TestFloorSameItems(t *testing.T) {
	var e floorEncoder
	for range 100 { // across a slab refill
		want, err := codec.MarshalItem(&order)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.order(&order)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("order: floor %v, codec %v", got, want)
		}
		want, err = codec.MarshalItem(&nested)
		if err != nil {
			t.Fatal(err)
		}
		got, err = e.nested(&nested)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("nested: floor %v, codec %v", got, want)
		}
	}
}

// The floor's time, number and set text against the codec's, over values
// the items could hold instead.
func TestFloorNumbers(t *testing.T) {
	var e floorEncoder
	for _, tm := range []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1, 2, 29, 23, 59, 59, 999999999, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 1, time.UTC),
		time.Date(2000, 2, 29, 6, 7, 8, 9000, time.FixedZone("x", 3600)),
		time.Date(2100, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
	} {
		o := order
		o.PlacedAt = tm
		o.Tags = codec.NewSet("z", "a", "m", "b", "y")
		got, err := e.order(&o)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := codec.MarshalItem(&o); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: floor %v, codec %v", tm, got, want)
		}
	}
	n := nested
	n.Scores = codec.NewSet(100, -5, 7, 123456, 0)
	got, err := e.nested(&n)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := codec.MarshalItem(&n); !reflect.DeepEqual(got, want) {
		t.Fatalf("scores: floor %v, codec %v", got, want)
	}
	for _, f := range []float64{9.99, 120.5, 0.25, -3.5, 1e-3, 0.1 + 0.2, 12345.6789, 1e15, 7} {
		for _, d := range []string{"149.95", "0", "-0.05", "100", "12.50", "123456789.123456789"} {
			for _, v := range []int{7, 99, 100, -1, 123456} {
				n := nested
				n.Lines = []Line{{"x", v, f}}
				o := order
				o.Total = decimal.RequireFromString(d)
				o.Version = v
				for _, pair := range []struct {
					name      string
					got, want func() (map[string]types.AttributeValue, error)
				}{
					{"order", func() (map[string]types.AttributeValue, error) { return e.order(&o) },
						func() (map[string]types.AttributeValue, error) { return codec.MarshalItem(&o) }},
					{"nested", func() (map[string]types.AttributeValue, error) { return e.nested(&n) },
						func() (map[string]types.AttributeValue, error) { return codec.MarshalItem(&n) }},
				} {
					got, err := pair.got()
					if err != nil {
						t.Fatalf("%s %v %s %d: %v", pair.name, f, d, v, err)
					}
					want, _ := pair.want()
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %v %s %d: floor %v, codec %v", pair.name, f, d, v, got, want)
					}
				}
			}
		}
	}
}

func BenchmarkFloor(b *testing.B) {
	var e floorEncoder
	b.Run("Order", func(b *testing.B) {
		loop(b, func() {
			if _, err := e.order(&order); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("Nested", func(b *testing.B) {
		loop(b, func() {
			if _, err := e.nested(&nested); err != nil {
				b.Fatal(err)
			}
		})
	})
}
