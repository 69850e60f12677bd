package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/request"
)

// BenchmarkOverhead measures what the library adds to an SDK call: each
// iteration makes one call through the Repo and the same call directly
// with the SDK client the repo built (same in-process server, same HTTP
// client, same retryer, same item), in alternating order, and charges each
// the process CPU time it used. overhead-% is (repo − sdk) / sdk: building
// the request from the schema, options, error mapping and decoding.
//
// The difference of two whole calls varies by a few percent from round to
// round on a loaded machine (as much between two identical SDK calls), so
// the benchmark also takes the repo's own share apart inside each call: a
// middleware wrapping the client's whole stack times the part of every
// call spent in it, and own-% is the rest of a repo call (the repo's own
// work, run where it runs in a program: between SDK calls, with the
// caches they leave) less the rest of a direct call (the SDK's work
// outside its stack), over the SDK call.
//
// own-% reads the process clock, so its windows outside the stack also
// take whatever other threads do meanwhile: the in-process server and the
// HTTP transport finishing the previous answer, the collector's background
// workers. own-thread-% charges the same windows only the calling
// goroutine's own CPU time: the goroutine is locked to its thread in those
// windows and the thread's clock is read (Linux; elsewhere the figure is
// left out). That is the repo's work and the collector's assists, which
// its allocations pay and which are its cost. It leaves out what the
// repo's garbage costs the collector's background workers later; the
// SDK's stack and the server are the same for both calls and subtracted
// either way. own-thread-ns/op is the same difference per call, in CPU
// time.
//
//	go test -run '^$' -bench Overhead -benchtime 3000x .
func BenchmarkOverhead(b *testing.B) {
	timer := &stackTimer{}
	orders, client, o := benchSetup(b, func(s *middleware.Stack) error {
		return s.Initialize.Add(timer, middleware.Before)
	})
	ctx := context.Background()
	// The SDK calls send exactly what the repo sends, built once.
	putIn, err := request.Put(Orders, o)
	if err != nil {
		b.Fatal(err)
	}
	key := Order{UserID: o.UserID, PlacedAt: o.PlacedAt, OrderID: o.OrderID}
	getIn, err := request.Get(Orders, key)
	if err != nil {
		b.Fatal(err)
	}
	queryIn, err := request.Query(Orders, Order{UserID: "u1"})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name      string
		repo, sdk func() error
	}{
		{"Put",
			func() error { return orders.Put(ctx, o) },
			func() error { _, err := client.PutItem(ctx, putIn); return err }},
		{"Get",
			func() error { _, err := orders.Get(ctx, key); return err },
			func() error {
				out, err := client.GetItem(ctx, getIn)
				if err == nil && len(out.Item) == 0 {
					err = errors.New("no item")
				}
				return err
			}},
		{"Query",
			func() error {
				p, err := orders.Query(ctx, Order{UserID: "u1"})
				if err == nil && len(p.Items) != 11 {
					err = fmt.Errorf("%d items", len(p.Items))
				}
				return err
			},
			func() error {
				out, err := client.Query(ctx, queryIn)
				if err == nil && len(out.Items) != 11 {
					err = fmt.Errorf("%d items", len(out.Items))
				}
				return err
			}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			_, timer.threads = threadCPUTime()
			var repoCPU, sdkCPU []time.Duration
			var repoOutside, sdkOutside time.Duration             // CPU outside the SDK's stack
			var repoOutsideThread, sdkOutsideThread time.Duration // the same, on the calling thread
			timed := func(f func() error, to *[]time.Duration, outside, outsideThread *time.Duration) {
				timer.spent, timer.outsideThread = 0, 0
				start := cpuTime()
				timer.outsideStart()
				if err := f(); err != nil {
					b.Fatal(err)
				}
				timer.outsideStop()
				d := cpuTime() - start
				*to = append(*to, d)
				*outside += d - timer.spent
				*outsideThread += timer.outsideThread
			}
			for b.Loop() {
				if len(repoCPU)%2 == 0 {
					timed(bc.repo, &repoCPU, &repoOutside, &repoOutsideThread)
					timed(bc.sdk, &sdkCPU, &sdkOutside, &sdkOutsideThread)
				} else {
					timed(bc.sdk, &sdkCPU, &sdkOutside, &sdkOutsideThread)
					timed(bc.repo, &repoCPU, &repoOutside, &repoOutsideThread)
				}
			}
			// The means include the garbage collector's work, which lands on
			// whichever call is running; the medians leave out such spikes.
			repoMean, sdkMean := mean(repoCPU), mean(sdkCPU)
			repoMed, sdkMed := median(repoCPU), median(sdkCPU)
			if sdkMean > 0 && sdkMed > 0 {
				n := float64(len(sdkCPU))
				b.ReportMetric(repoMean, "repo-cpu-ns/op")
				b.ReportMetric(sdkMean, "sdk-cpu-ns/op")
				b.ReportMetric(100*(repoMean-sdkMean)/sdkMean, "overhead-%")
				b.ReportMetric(100*(repoMed-sdkMed)/sdkMed, "median-overhead-%")
				b.ReportMetric(100*float64(repoOutside-sdkOutside)/n/sdkMean, "own-%")
				if timer.threads {
					own := float64(repoOutsideThread-sdkOutsideThread) / n
					b.ReportMetric(100*own/sdkMean, "own-thread-%")
					b.ReportMetric(own, "own-thread-ns/op")
				}
			}
		})
	}
}

// stackTimer, the first middleware of a client's stack, adds up the CPU
// time calls spend inside the stack (serializing, signing, HTTP, the
// in-process server, decoding the answer).
//
// With threads set, it also adds up in outsideThread the calling thread's
// CPU time outside the stack, between outsideStart and outsideStop. The
// goroutine is locked to its thread there, so that the thread clock is its
// own, and unlocked inside the stack, as in a program: a locked goroutine
// that blocks on the network hands its thread's place to another and waits
// to be handed it back, which would add thread switches to every call.
type stackTimer struct {
	spent         time.Duration
	threads       bool
	mark          time.Duration // the thread clock at outsideStart
	outsideThread time.Duration
}

func (*stackTimer) ID() string { return "BenchStackTimer" }

func (t *stackTimer) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
	middleware.InitializeOutput, middleware.Metadata, error,
) {
	t.outsideStop()
	start := cpuTime()
	out, md, err := next.HandleInitialize(ctx, in)
	t.spent += cpuTime() - start
	t.outsideStart()
	return out, md, err
}

func (t *stackTimer) outsideStart() {
	if t.threads {
		runtime.LockOSThread()
		t.mark = threadNow()
	}
}

func (t *stackTimer) outsideStop() {
	if t.threads {
		t.outsideThread += threadNow() - t.mark
		runtime.UnlockOSThread()
	}
}

// threadNow is the calling thread's CPU time, or 0 without a thread clock.
func threadNow() time.Duration {
	d, _ := threadCPUTime()
	return d
}

func mean(d []time.Duration) float64 {
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return float64(sum) / float64(max(len(d), 1))
}

func median(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return float64(d[len(d)/2])
}

// benchSetup puts 11 orders of user u1 and returns the table, the SDK
// client the repo built (with apiOptions on its stack), and the first
// order.
func benchSetup(b *testing.B, apiOptions ...func(*middleware.Stack) error) (*dynamo.Table[Order], *dynamodb.Client, Order) {
	srv, _ := newTestRepo(b)
	repo, err := dynamo.New(aws.Config{APIOptions: apiOptions},
		dynamo.WithEndpoint(srv.URL), dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("dynamotest", "dynamotest", ""))
	if err != nil {
		b.Fatal(err)
	}
	orders := dynamo.Bind(repo, Orders)
	o := order("u1", 1)
	o.Tags = codec.NewSet("a", "b")
	if err := orders.Put(context.Background(), o); err != nil {
		b.Fatal(err)
	}
	for i := 2; i < 12; i++ {
		if err := orders.Put(context.Background(), order("u1", i)); err != nil {
			b.Fatal(err)
		}
	}
	return orders, repo.Client().(*dynamodb.Client), o
}

// cannedAPI answers from memory, to measure what the library itself costs
// per call (request building, decoding) without HTTP or a server.
type cannedAPI struct {
	dynamo.API
	item  map[string]types.AttributeValue
	items []map[string]types.AttributeValue
}

func (c *cannedAPI) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return &dynamodb.PutItemOutput{}, nil
}

func (c *cannedAPI) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: c.item}, nil
}

func (c *cannedAPI) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return &dynamodb.QueryOutput{Items: c.items, Count: int32(len(c.items))}, nil
}

// cannedOrders is the table BenchmarkLayer calls: a Get answers o (with a
// set), a Query 11 orders.
func cannedOrders() (*dynamo.Table[Order], Order) {
	o := order("u1", 1)
	o.Tags = codec.NewSet("a", "b")
	item, _ := Orders.Dump(o)
	items := make([]map[string]types.AttributeValue, 11)
	for i := range items {
		items[i], _ = Orders.Dump(order("u1", i))
	}
	repo, _ := dynamo.FromClient(&cannedAPI{item: item, items: items})
	return dynamo.Bind(repo, Orders), o
}

// The allocations of a call, the SDK's answer aside, are the repo's own
// work on every call: this guards them against regressions. The counts
// include the canned output (one) and, for Get and Query, the decoded
// result (the Set's map: two; a page's items: one).
func TestCallAllocations(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	orders, o := cannedOrders()
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		max  float64
		f    func() error
	}{
		{"Put", 7, func() error { return orders.Put(ctx, o) }},
		{"Get", 8, func() error { _, err := orders.Get(ctx, o); return err }},
		// An option moves the request's config to the heap; ConsistentRead is
		// a *bool of its own.
		{"Get, Consistent", 10, func() error { _, err := orders.Get(ctx, o, dynamo.Consistent()); return err }},
		{"Query", 8, func() error { _, err := orders.Query(ctx, Order{UserID: "u1"}); return err }},
	} {
		var err error
		if got := testing.AllocsPerRun(200, func() { err = tt.f() }); got > tt.max {
			t.Errorf("%s: %.1f allocs, want at most %.0f", tt.name, got, tt.max)
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
}

func BenchmarkLayer(b *testing.B) {
	orders, o := cannedOrders()
	ctx := context.Background()
	b.Run("Put", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			if err := orders.Put(ctx, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			if _, err := orders.Get(ctx, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Query", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			if _, err := orders.Query(ctx, Order{UserID: "u1"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkLayerCold times the repo's own work of BenchmarkLayer two ways
// in one loop: right after an SDK call to the in-process server, as it runs
// in a program (cold-ns), and right after the same repo call, as
// BenchmarkLayer's loop runs it (hot-ns). Both include the same two CPU
// time readings.
//
//	GOMAXPROCS=1 go test -run '^$' -bench LayerCold -benchtime 5000x .
func BenchmarkLayerCold(b *testing.B) {
	_, client, o := benchSetup(b)
	putIn, err := request.Put(Orders, o)
	if err != nil {
		b.Fatal(err)
	}
	item, _ := Orders.Dump(o)
	items := make([]map[string]types.AttributeValue, 11)
	for i := range items {
		items[i], _ = Orders.Dump(order("u1", i))
	}
	repo, _ := dynamo.FromClient(&cannedAPI{item: item, items: items})
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	key := Order{UserID: o.UserID, PlacedAt: o.PlacedAt, OrderID: o.OrderID}
	for _, bc := range []struct {
		name string
		call func() error
	}{
		{"Put", func() error { return orders.Put(ctx, o) }},
		{"Get", func() error { _, err := orders.Get(ctx, key); return err }},
		{"Query", func() error { _, err := orders.Query(ctx, Order{UserID: "u1"}); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var cold, hot time.Duration
			timed := func(to *time.Duration) {
				start := cpuTime()
				if err := bc.call(); err != nil {
					b.Fatal(err)
				}
				*to += cpuTime() - start
			}
			for b.Loop() {
				if _, err := client.PutItem(ctx, putIn); err != nil {
					b.Fatal(err)
				}
				timed(&cold)
				timed(&hot)
			}
			b.ReportMetric(float64(cold)/float64(b.N), "cold-ns")
			b.ReportMetric(float64(hot)/float64(b.N), "hot-ns")
		})
	}
}
