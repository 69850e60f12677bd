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
	out := c.filter.heads(nil)
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

// heads appends the top-level attributes of the paths in c (or o).
func (c *cond) heads(out []string) []string {
	for _, k := range c.kids {
		out = k.heads(out)
	}
	for _, o := range c.ops {
		out = o.heads(out)
	}
	return out
}

func (o *operand) heads(out []string) []string {
	if o.kind == opPath {
		out = append(out, o.path[0].name)
	}
	for _, a := range o.args {
		out = a.heads(out)
	}
	return out
}

// ItemAttributes appends to dst the top-level attributes the
// ConditionExpression and the UpdateExpression read or write, sorted and
// without repeats: all that Condition, Update and UpdatedAttributes look
// at, so that they answer the same for an item holding only these
// attributes as for the whole item. A write decodes only these of the
// stored item.
func (c *Compiled) ItemAttributes(dst []string) []string {
	out := dst[:0]
	if c.condition != nil {
		out = c.condition.heads(out)
	}
	if u := c.update; u != nil {
		out = append(out, u.heads...)
		for _, a := range u.set {
			out = a.value.heads(out)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
