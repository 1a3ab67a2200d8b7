package locate

import (
	"go/types"
	"strings"

	"golang.org/x/mod/semver"
)

// The shape of the knowledge table (knowledge.go): what a library
// function means to a controller, what the table says of it, and how its
// entries are named (funcKey, typeKey, fieldKey).

// Role is what a library function means to a controller.
type Role int

// The roles of the knowledge table.
const (
	roleNone                Role = iota
	RoleRead                     // reads an object by key: Obj is the object (-1: the first result), Key the key
	RoleFinalizerAdd             // adds a finalizer: Obj, Arg is the finalizer
	RoleFinalizerRemove          // removes a finalizer: Obj, Arg is the finalizer
	RoleFinalizerHas             // tests for a finalizer
	RoleSetFinalizers            // stores the finalizer list: Arg is the new list
	RoleConditionSet             // sets a status condition: Obj is the target, Arg the type (or the condition when ArgIsCondition)
	RoleTerminalError            // wraps an error so that it is not retried
	RoleQueueGet                 // a workqueue hands out the next key
	RoleQueueAdd                 // a workqueue takes a key
	RoleQueueAddRateLimited      // a workqueue takes a key back after a failure
	RoleQueueAddAfter            // a workqueue takes a key back after a delay
	RoleQueueForget              // a workqueue forgets the key's failures
	RoleQueueAddWithOpts         // a priority queue takes keys as its options say (RateLimited: after a failure; After: after a delay; neither: at once): Arg is the options, Key the first key
	RoleRegisterFor              // registers the primary type of a controller: Arg is the object
	RoleRegisterComplete         // registers the reconciler: Arg is the reconciler
	RoleInformerFactory          // creates an informer factory: Arg is the resync period
	RoleJitter                   // wraps a duration in jitter: Arg is the duration
	RoleJitterResult             // hands back the reconcile result Arg, a jitter added to its RequeueAfter
	RoleDeletionTimestamp        // returns the object's deletion timestamp
	RoleOwnerRef                 // makes an owner reference, so garbage collection removes the child: Obj is the owner
	RoleWrite                    // writes to the API server: Verb, Obj is the object written
	RoleEvent                    // records an event: Obj is the object it is about
	RoleApply                    // applies desired state, writing only what differs from the live object (server-side apply, create-or-update): Obj is the object, Summary how it compares
	RoleCompare                  // compares two values deeply
	RoleClock                    // reads the clock: a value that differs on every pass
	RoleTimeIsZero               // tells whether a timestamp is unset
	RoleAddHandler               // registers an informer event handler: Arg is the handler
	RoleNewInformer              // creates a shared informer: Arg is the example object of the watched type
	RoleNewDynamicInformer       // creates a dynamic informer, or a factory of them, whose objects are unstructured
	RoleEventSink                // starts sending recorded events to the API server
	RoleQueuePop                 // a FIFO of events hands its next item to a process function: Arg is the function
	RoleEnqueueOwner             // a watch's handler enqueues the owner of the object watched: Arg is an object of the owner's type
	RoleRegisterWatch            // a builder watches a type: Arg is an object of the type, the next argument the handler that picks the keys queued
	RoleRunSync                  // runs a generated reconciler's Reconcile(ctx, key) as a queue's sync function: Arg is the reconciler
	RoleRequeueAfterEvent        // an error that asks for the key again after a delay, not as a failure: Arg is the delay (-1: at once)
	RoleReconcileEvent           // an event a reconcile returns: Arg is its type (a normal one is no failure)
	RoleSkipKey                  // an error that drops the key without a requeue
	RoleManagedCondition         // a condition manager sets a condition: Arg is the type (-1: every type of its set)
	RoleNewConditionSet          // makes a condition set: Implied is its happy type
	RoleSetInsert                // adds to a set of strings: Arg is the element
	RoleSetDelete                // removes from a set of strings: Arg is the element
	RoleHandleAll                // makes an event handler that hands every event's object to one function: Arg is the function
	RoleHandlerPass              // adapts a handler function to another event's signature: Arg is the function
	RoleImplEnqueue              // a dependency's controller enqueues a key (the object's, its owner's…), or returns a function that does: Obj is the object, Key the key (-1: none)
	RoleNewError                 // returns a new error, never nil
	RoleTimer                    // arms a timer: Arg is the delay, Callback the function it runs when it fires (-1: the caller waits on the timer's channel)
	RoleSteadyTest               // tests a condition of the object (Obj) whose value on a succeeding pass of an unchanged object is known: True says it holds; Arg, when set, must be the readiness type
	RoleReconcileFunc            // a function type's Reconcile, which calls the function converted to the type: that function is the entry
	RoleObjectReconciler         // makes a reconciler of an object reconciler: the library reads the object by the request's key (Adapter) and hands it to the Reconcile(ctx, obj) of Arg, the entry
	RoleFormat                   // renders values as text or bytes and changes nothing: Arg is the format, whose text up to its first verb starts the result (-1: none)
	RoleFinalizerList            // returns the object's finalizer list and changes nothing
	RoleCopyOfReceiver           // returns a copy of its receiver: the same dynamic type, the same values
	RoleTimeOrder                // orders two instants (t.After(u), t.Before(u)): the receiver against Arg
	RoleAbsentTest               // tests an error (Obj) for an object the API server does not hold
	RoleWrapError                // wraps the error Arg: nil when it is nil, else an error that is not
	RoleRunsFunc                 // calls the function Arg at least once before it returns (a retry helper)
	RoleLogError                 // logs at error level: the code says the branch it stands in is a failure
	RoleLog                      // logs a line, or makes a logger that will, and changes nothing the controller reads
	RoleMetaGet                  // returns a field of an object's metadata (its name, its namespace) and changes nothing
	RoleMetric                   // records a value in a metric the process exports, or picks the series to record in, and changes nothing the controller reads or the cluster holds
	RoleList                     // lists objects of a kind: Obj is the list the items are read into
	RoleMetaEntrySet             // stores an entry of an object's labels or annotations: Obj is the object's metadata, Arg the key
	RoleMetaEntryHas             // tests whether an object's labels or annotations hold an entry: Obj is the object's metadata, Arg the key
	RoleTakenTest                // tests an error (Obj) for a create whose object the API server already holds
	RoleValue                    // makes a value from its arguments alone and changes nothing (a metav1.Time of a time.Time)
)

// Fact is one entry of the knowledge table.
type Fact struct {
	Role Role
	// Obj and Key index the call's object and key arguments (-1: none).
	Obj, Key int
	// Arg indexes the argument the role is about (-1: none).
	Arg int
	// ArgIsCondition says Arg is a whole condition value, not its type.
	ArgIsCondition bool
	// ArgIsOptions says Arg is an options struct whose Reconciler field is
	// the value the role is about.
	ArgIsOptions bool
	// RecvPath is, for a call of the tree's own method that registers a
	// reconciler it holds in a field of its receiver (liftedRoles), the
	// field's path, dot-separated (Arg is then -1).
	RecvPath string
	// ArgPath is, for a call of the tree's own function whose registered
	// reconciler is stored by the options it is handed in argument Arg
	// (liftedRoles, flow_applied.go), the path below that argument,
	// dot-separated.
	ArgPath string
	// Implied is the qualified name of the constant a helper sets without
	// taking it as an argument (MarkReconciling sets Reconciling).
	Implied string
	// True says the setter sets the condition to True.
	True bool
	// Diff says a rendering is the difference between two objects (a
	// merge patch): empty ("{}", no bytes) when they agree.
	Diff bool
	// Receiver says a comparison's verdict is about the value it is
	// called on: the result of a call handed the two values compared (a
	// patch calculated from the current and the modified object, then
	// result.IsEmpty()).
	Receiver bool
	// Raw says a comparison reads every field, unexported ones included,
	// and calls no Equal method of the values (rawMisjudged).
	Raw bool
	// Verb is what a write does (create, update, patch, delete, apply).
	Verb string
	// Target overrides the written object's description ("status").
	Target string
	// Status says the write is to the object's status (or includes it).
	Status bool
	// Summary says what a library function does with a value it is given,
	// for the steps of a trace that pass through it.
	Summary string
	// Drift names, for an apply entry point, the library function holding
	// the comparison and the calls in it that compute the drift and apply
	// the difference (the library's bodies are not type-checked, so these
	// are read from its source by name).
	Drift *DriftKnowledge
	// Loop names, for the constructor of a dependency's controller that
	// runs a generated reconciler, where that controller's worker and
	// queue are (read from its source by name, as Drift).
	Loop *LoopKnowledge
	// Adapter names, for a library function that makes a reconciler of an
	// object reconciler, where its reconciler reads the object by the
	// request's key (read from its source by name, as Drift).
	Adapter *AdapterKnowledge
	// Mutate indexes, for a create-or-update (or -patch), the mutate
	// function argument run on the object read; 0 when there is none.
	Mutate int
	// Callback indexes, for a timer, the function argument run when it
	// fires; -1 when the caller receives from the timer's channel and runs
	// what follows itself.
	Callback int
	// Before, when set, says the key names a declaration only in versions
	// of its module older than this one: from it on, the name is an alias
	// (or a type defined from a generic one) and calls resolve to the
	// generic declaration, which has its own entry. knowledge_test.go
	// checks that the key does not resolve at the version checked.
	Before string
}

// DriftKnowledge locates a library's own drift comparison and apply. The
// library's unexported names change between versions: Compare lists them
// with the versions each holds for, and a version none of them covers, or
// a body that calls none of them, is warned about.
type DriftKnowledge struct {
	File, Func string // file in the module, function name (a method of the entry's receiver when the entry is a method)
	Compare    []VersionedName
	Apply      string // callee inside Func
}

// LoopKnowledge locates, in the source of a dependency's controller that
// owns the workqueue and the worker loop, the sites of the stages it
// holds: File is in the constructor's package; Worker is the method that
// takes a key off the queue (calling Get) and runs the sync function
// (calling Sync); Errors the method it hands a failed key to, which puts
// it back (AddRateLimited, or AddAfter when the pass asked for a delay);
// Enqueue the method every enqueue ends in (calling Add). The methods'
// receiver is the type the constructor returns.
type LoopKnowledge struct {
	File                     string
	Worker, Errors, Enqueue  string
	Get, Sync, Add           string
	AddRateLimited, AddAfter string
}

// AdapterKnowledge locates, in the source of a library's adapter that
// makes a reconciler of an object reconciler, the read of the object by
// the request's key: File is in the function's package, Type.Method the
// adapter's method holding the read (the type is unexported: the function
// returns it as an interface), Read the name of the method it calls.
type AdapterKnowledge struct {
	File, Type, Method, Read string
}

// VersionedName is a library's unexported name with the versions of its
// module it holds for: Since (inclusive) up to Before (exclusive), either
// open when empty.
type VersionedName struct {
	Name          string
	Since, Before string
}

// holds reports whether the name holds at a module version ("" when the
// version is not known: then every name is tried).
func (n VersionedName) holds(version string) bool {
	if version == "" || !semver.IsValid(version) {
		return true
	}
	return (n.Since == "" || semver.Compare(version, n.Since) >= 0) &&
		(n.Before == "" || semver.Compare(version, n.Before) < 0)
}

// funcKey is the knowledge table's name of a function: pkg.F or
// (pkg.T).M / (*pkg.T).M, generic instances folded to their origin.
func funcKey(f *types.Func) string {
	f = f.Origin()
	if f.Pkg() == nil {
		return f.Name()
	}
	sig, _ := f.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return f.Pkg().Path() + "." + f.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		star, t = "*", p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		obj := n.Origin().Obj()
		if obj.Pkg() != nil {
			return "(" + star + obj.Pkg().Path() + "." + obj.Name() + ")." + f.Name()
		}
	}
	return f.Pkg().Path() + "." + f.Name()
}

// typeKey is the qualified name of a named type (pointers removed), or "".
func typeKey(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// fieldKey is the qualified name of a struct field: pkg.T.Field, or "".
func fieldKey(v *types.Var, owner types.Type) string {
	k := typeKey(owner)
	if k == "" {
		return ""
	}
	return k + "." + v.Name()
}

// splitQualified splits "pkg/path.Name" into its package path and name.
func splitQualified(q string) (string, string) {
	i := strings.LastIndexByte(q, '.')
	return q[:i], q[i+1:]
}
