package codec

import (
	"math/big"
	"reflect"
	"unsafe"

	"github.com/shopspring/decimal"
)

// decimalLayout mirrors decimal.Decimal. When (and only when) the real
// type has exactly this layout, checked once at start-up, newDecimal builds
// a Decimal whose big.Int and its one-word digit array live in a single
// allocation instead of the two that decimal.New makes. Otherwise it is
// decimal.New.
type decimalLayout struct {
	value *big.Int
	exp   int32
}

type oneWordInt struct {
	i big.Int
	w [1]big.Word
}

var decimalLayoutOK = func() bool {
	t := reflect.TypeFor[decimal.Decimal]()
	var l decimalLayout
	return t.Size() == unsafe.Sizeof(l) && t.NumField() == 2 &&
		t.Field(0).Name == "value" && t.Field(0).Type == reflect.TypeFor[*big.Int]() && t.Field(0).Offset == unsafe.Offsetof(l.value) &&
		t.Field(1).Name == "exp" && t.Field(1).Type == reflect.TypeFor[int32]() && t.Field(1).Offset == unsafe.Offsetof(l.exp)
}()

func newDecimal(coef int64, exp int32) decimal.Decimal {
	u := uint64(coef)
	if coef < 0 {
		u = -u
	}
	if !decimalLayoutOK || uint64(big.Word(u)) != u {
		return decimal.New(coef, exp)
	}
	p := new(oneWordInt)
	if u != 0 {
		p.w[0] = big.Word(u)
		p.i.SetBits(p.w[:])
		if coef < 0 {
			p.i.Neg(&p.i)
		}
	}
	var d decimal.Decimal
	*(*decimalLayout)(unsafe.Pointer(&d)) = decimalLayout{value: &p.i, exp: exp}
	return d
}
