package ddbjson

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// A Decoder decodes items found by its caller inside one input, such as the
// items of a batch request, sharing its allocations between them: their
// strings and S and N members come from a few shared arrays rather than a
// few per item. The items keep each other's arrays alive (the trade-off);
// nothing decoded points into the input. Release returns its working
// buffers to a pool once the decoding is done; a Decoder is not safe for
// concurrent use.
type Decoder struct{ d decoder }

// NewDecoder returns a Decoder of items inside data.
func NewDecoder(data []byte) *Decoder { return &Decoder{d: newDecoder(data)} }

// ItemAt decodes the item that starts at data[off:], after optional
// whitespace: a JSON object of attribute names to DynamoDB JSON values, or
// null for a nil map. It returns the item and the offset just past it;
// errors are those of UnmarshalItem, with offsets in data. If reuse is not
// nil, it is an empty map that becomes the item (a caller that recycles
// the maps of items it is done with saves making one).
func (x *Decoder) ItemAt(off int, reuse map[string]types.AttributeValue) (map[string]types.AttributeValue, int, error) {
	d := &x.d
	d.i, d.depth, d.invalid, d.reuse = off, 0, nil, reuse
	defer func() { d.reuse = nil }()
	m, err := d.item(msgFieldType)
	if err == nil && d.invalid != nil {
		err = d.invalid
	}
	if err != nil {
		return nil, d.i, err
	}
	return m, d.i, nil
}

// Reset makes x decode items inside data, reusing the memory that holds the
// strings and S and N values of the items it decoded before, which must
// no longer be in use: a caller that decodes many inputs, each done with
// before the next, allocates that memory once.
func (x *Decoder) Reset(data []byte) {
	d := &x.d
	d.data, d.i, d.depth, d.invalid, d.reuse = data, 0, 0, nil, nil
	d.chunk, d.sSlab, d.nSlab = d.chunk[:0], d.sSlab[:0], d.nSlab[:0]
	if d.stk == nil {
		s := stackPool.Get().(*stacks)
		d.stk, d.avs, d.strs, d.members, d.scratch = s, s.avs, s.strs, s.members, s.scratch
	}
}

// Release returns the decoder's working buffers to the pool; the items it
// decoded stay valid (until a Reset).
func (x *Decoder) Release() {
	x.d.release()
	x.d.data, x.d.avs, x.d.strs, x.d.members, x.d.scratch = nil, nil, nil, nil, nil
}
