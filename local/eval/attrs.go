package eval

import (
	"slices"
)

// FilterAttributes returns the top-level attributes the FilterExpression
// reads, at any depth of the expression (function arguments included),
// sorted and without repeats; nil without a FilterExpression. A query on a
// secondary index checks them against what the index projects.
func (c *Compiled) FilterAttributes() []string {
	if c.filter == nil {
		return nil
	}
	var out []string
	c.filter.heads(&out)
	slices.Sort(out)
	return slices.Compact(out)
}

// ProjectionAttributes returns the top-level attributes the
// ProjectionExpression names, sorted; nil without a ProjectionExpression.
func (c *Compiled) ProjectionAttributes() []string {
	if c.projection == nil {
		return nil
	}
	out := make([]string, 0, len(c.projection.names))
	for name := range c.projection.names {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func (c *cond) heads(out *[]string) {
	for _, k := range c.kids {
		k.heads(out)
	}
	for _, o := range c.ops {
		o.heads(out)
	}
}

func (o *operand) heads(out *[]string) {
	if o.kind == opPath {
		*out = append(*out, o.path[0].name)
	}
	for _, a := range o.args {
		a.heads(out)
	}
}
