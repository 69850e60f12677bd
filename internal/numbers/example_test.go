package numbers_test

import (
	"bytes"
	"fmt"

	"github.com/dynamogo/dynamo/internal/numbers"
)

func ExampleCanonical() {
	for _, s := range []string{"1.50", "0100", "-0", "1E+2", "+.5", "12e-3"} {
		c, _ := numbers.Canonical(s)
		fmt.Println(s, "->", c)
	}
	_, err := numbers.Canonical("1.2.3")
	fmt.Println(err)
	// Output:
	// 1.50 -> 1.5
	// 0100 -> 100
	// -0 -> 0
	// 1E+2 -> 100
	// +.5 -> 0.5
	// 12e-3 -> 0.012
	// The parameter cannot be converted to a numeric value: 1.2.3
}

func ExampleAdd() {
	a := numbers.MustParse("10000000000000000000000")
	b := numbers.MustParse("1")
	sum, _ := numbers.Add(a, b)
	fmt.Println(sum)
	_, err := numbers.Add(numbers.MustParse("1e50"), b) // 51 significant digits
	fmt.Println(err)
	// Output:
	// 10000000000000000000001
	// Number overflow. Attempting to store a number with magnitude larger than supported range
}

func ExampleAppendKey() {
	a, b := numbers.MustParse("-1.5"), numbers.MustParse("-1")
	fmt.Println(numbers.Compare(a, b), bytes.Compare(numbers.AppendKey(nil, a), numbers.AppendKey(nil, b)))
	// Output: -1 -1
}
