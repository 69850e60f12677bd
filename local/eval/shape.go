package eval

import (
	"slices"
	"strings"

	"github.com/dynamogo/dynamo/expr"
)

// docPaths is the resolution of the document paths an UpdateExpression acts
// on, or a ProjectionExpression names: the paths with their names resolved,
// checked for depth and overlap, and their tree. It depends on the text and
// on what the "#name" placeholders it uses stand for, never on the values,
// so the last one is kept with the parse (parsed.docPaths) and reused by
// every request whose names resolve those placeholders the same way. Only a
// resolution without error is kept, so a request that fails still fails
// through the full resolution, with the same message. It is immutable.
type docPaths struct {
	names []string // the placeholders used, each once
	reals []string // what each of names stood for
	paths []path   // update: SET, REMOVE, ADD, DELETE in order; projection: as written
	tree  *projNode
	heads []string // update: the top-level attributes acted on, in order
	flat  bool     // every path is a top-level attribute: tree is heads
}

// fits reports whether names resolve d's placeholders as they did when d
// was made.
func (d *docPaths) fits(names map[string]string) bool {
	for i, n := range d.names {
		if real, ok := names[n]; !ok || real != d.reals[i] {
			return false
		}
	}
	return true
}

// docPaths returns the resolved paths of p (an update or a projection),
// recording the names they use; r.begin has named the expression.
func (r *resolver) docPaths(p *parsed) (*docPaths, error) {
	if d := p.docPaths.Load(); d != nil && d.fits(r.names) {
		for _, n := range d.names {
			if !slices.Contains(r.usedNames, n) {
				r.usedNames = append(r.usedNames, n)
			}
		}
		return d, nil
	}
	var all []expr.Path
	if u := p.update; u != nil {
		all = make([]expr.Path, 0, len(u.Set)+len(u.Remove)+len(u.Add)+len(u.Delete))
		for _, a := range u.Set {
			all = append(all, a.Path)
		}
		all = append(all, u.Remove...)
		for _, a := range u.Add {
			all = append(all, a.Path)
		}
		for _, a := range u.Delete {
			all = append(all, a.Path)
		}
	} else {
		all = p.proj
	}
	d := &docPaths{paths: make([]path, len(all)), tree: &projNode{}, flat: true}
	// The steps get their own array rather than the request's slab, which
	// a kept resolution would otherwise hold on to.
	n := 0
	for _, q := range all {
		n += len(q)
	}
	steps, slab := make([]step, 0, n), r.slab.steps
	r.slab.steps = steps
	defer func() { r.slab.steps = slab }()
	for i, q := range all {
		var err error
		if d.paths[i], err = r.path(q); err != nil {
			return nil, err
		}
		if err := r.overlap(d.paths[:i], d.paths[i]); err != nil {
			return nil, err
		}
		// What the names stand for may alias memory the caller reuses (a
		// request buffer): the kept paths get a copy. The placeholders are
		// the cached parse's own.
		for j, e := range q {
			if e.IsIndex || !strings.HasPrefix(e.Name, "#") {
				continue
			}
			k := slices.Index(d.names, e.Name)
			if k < 0 {
				k = len(d.names)
				d.names = append(d.names, e.Name)
				d.reals = append(d.reals, strings.Clone(r.names[e.Name]))
			}
			d.paths[i][j].name = d.reals[k]
		}
	}
	for _, q := range d.paths {
		d.tree.add(q)
		d.flat = d.flat && len(q) == 1
		if p.update != nil && !slices.Contains(d.heads, q[0].name) {
			d.heads = append(d.heads, q[0].name)
		}
	}
	p.docPaths.Store(d)
	return d, nil
}
