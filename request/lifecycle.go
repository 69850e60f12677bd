package request

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
)

type at struct {
	updateArg
	t time.Time
}

func (o at) apply(c *config) { c.now = o.t }
func (at) putOption()        {}
func (at) txOption()         {}
func (at) batchWriteOption() {}

// AtOption is At: an option of Put, Update, TransactWrite and BatchWrite.
type AtOption interface {
	PutOption
	UpdateOption
	TxOption
	BatchWriteOption
}

// At sets the time that writes stamp on the created and updated fields of
// their items (tag flags created, updated); without it they use
// time.Now(). A transaction or batch stamps all of its items with one time.
func At(t time.Time) AtOption { return at{t: t} }

func (c *config) clock() time.Time {
	if c.now.IsZero() {
		return time.Now()
	}
	return c.now
}

// stampTime is the time a write of s stamps: the clock is read only for a
// schema with created or updated fields (time.Now is a few percent of a
// Put's own work), the zero time otherwise, which nothing stamps.
func stampTime(s lifecycled, c *config) time.Time {
	if _, created, updated := s.Lifecycle(); created == "" && updated == "" {
		return time.Time{}
	}
	return c.clock()
}

// lifecycled is what a write needs of a schema to keep its version and
// timestamps.
type lifecycled interface {
	Lifecycle() (version, created, updated string)
	Stamp(attr string, now time.Time) any
	Entity() string
}

// lock adds the optimistic lock of a versioned schema to the write's
// condition, after the caller's (AND): the stored version must be the one
// read, expected, where 0 is none (an item not stored yet, or stored
// without a version). A failed condition then returns the stored item
// (ALL_OLD), which tells a version conflict from the caller's condition
// failing without a second read that could race.
func lock(s lifecycled, c *config, expected int64) {
	attr, _, _ := s.Lifecycle()
	if attr == "" {
		return
	}
	var v expr.Cond
	if expected == 0 {
		v = expr.NotExists(attr)
	} else {
		v = expr.Eq(attr, expected)
	}
	if c.condSet {
		v = expr.AllOf(c.cond, v)
	}
	c.cond, c.condSet = v, true
	c.onCondFail = types.ReturnValuesOnConditionCheckFailureAllOld
}

// lifecycleChanges are the changes an update adds for the library's
// fields: the next version, updated = now and created = now if absent.
func lifecycleChanges(s lifecycled, next any, now time.Time) []expr.Change {
	version, created, updated := s.Lifecycle()
	var out []expr.Change
	if version != "" {
		out = append(out, expr.Set(version, next))
	}
	if updated != "" {
		out = append(out, expr.Set(updated, s.Stamp(updated, now)))
	}
	if created != "" {
		out = append(out, expr.IfNotExists(created, s.Stamp(created, now)))
	}
	return out
}

// unbatchable refuses a BatchWriteItem entry of a versioned schema: a batch
// carries no conditions, so it could not keep the lock.
func unbatchable(s lifecycled, op string) error {
	if version, _, _ := s.Lifecycle(); version != "" {
		return errorf(op, "entity %q has a version field (%s): a batch cannot carry its condition; use a single write or a transaction", s.Entity(), version)
	}
	return nil
}
