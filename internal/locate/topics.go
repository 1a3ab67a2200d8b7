package locate

// Topic is one thing ctrlcmp answers about a controller: a row of the
// comparison table, or an answer the reader writes from the source.
type Topic struct {
	ID string
	// Question is the heading, in the words of the exercise.
	Question string
	// Help says in one line what the answer holds (for --help).
	Help string
}

// The answers of spec/rows.md that are not table rows.
const (
	AnswerIntervalTrace = "interval-trace"
	AnswerRetryTrace    = "retry-trace"
	AnswerWrites        = "writes"
	AnswerDrift         = "drift"
)

// answers are the topics written under the table.
var answers = []Topic{
	{AnswerIntervalTrace, "what the success requeue waits for",
		"the return, each function the duration passes through, the Spec field and the CRD property that set it"},
	{AnswerRetryTrace, "what the retry after a failure waits for",
		"the same for the requeue after a failure"},
	{AnswerWrites, "what one reconcile writes",
		"every write the reconcile can make, whether every succeeding pass makes it, and the calls that reach it"},
	{AnswerDrift, "where drift is corrected",
		"where desired state is compared with the cluster, and what applies the difference"},
}

// Topics lists the table rows in table order, then the answers.
func Topics() []Topic {
	var out []Topic
	for _, l := range locators {
		out = append(out, l.Topic)
	}
	return append(out, answers...)
}

// Question returns the heading of a row or answer id ("" when unknown).
func Question(id string) string {
	for _, t := range Topics() {
		if t.ID == id {
			return t.Question
		}
	}
	return ""
}
