package locate

// locator answers one row of the table for one controller, in the manner of
// a go/analysis Analyzer: it declares its row and reads what other locators
// found through the memoised getters of its pass.
type locator struct {
	Topic
	run func(*pass) Row
}

// locators are the table's rows, in table order.
var locators = []locator{
	{Topic{RowEntry, "the reconcile entry point",
		"the Reconcile method, or the client-go sync function the worker hands keys to"}, nil},
	{Topic{RowReread, "where the object is re-read",
		"the Get of the primary object by the request's key"}, nil},
	{Topic{RowFinalizerConst, "the finalizer constant",
		"the constant naming the controller's own finalizer"}, nil},
	{Topic{RowFinalizerAdd, "where the finalizer is added",
		"where the reconcile adds it to the primary object"}, nil},
	{Topic{RowFinalizerCleanup, "the finalizer's cleanup",
		"the function the deletion branch runs before the finalizer goes"}, nil},
	{Topic{RowFinalizerRemove, "where the finalizer is removed",
		"where the cleanup removes it"}, nil},
	{Topic{RowConditionTypes, "the status condition types",
		"each condition type set on the primary object, at its constant, with one set site"}, nil},
	{Topic{RowRequeueError, "the requeue on error",
		"the failure return (or AddRateLimited) that brings the object back"}, nil},
	{Topic{RowRequeueSuccess, "the requeue on success",
		"the return (or AddAfter) that brings a reconciled object back after an interval"}, nil},
}

// Rows lists the row ids in the order the table shows them.
var Rows = func() []string {
	var ids []string
	for _, l := range locators {
		ids = append(ids, l.ID)
	}
	return ids
}()

// pass is one controller under analysis; its getters compute what several
// locators share, once.
type pass struct {
	a *analysis
	f *found
}
