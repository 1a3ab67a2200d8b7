package locate

// knowledgeChecked names, for every module whose functions the knowledge
// table keys on, the version its entries were resolved against by
// knowledge_test.go (the version the fixtures pin). An entry that holds
// only for other versions says so (Fact.Before, VersionedName).
var knowledgeChecked = map[string]string{
	"sigs.k8s.io/controller-runtime":           "v0.24.1",
	"k8s.io/client-go":                         "v0.36.2",
	"k8s.io/apimachinery":                      "v0.36.2",
	"github.com/fluxcd/pkg/runtime":            "v0.111.0",
	"github.com/fluxcd/pkg/apis/meta":          "v1.31.0",
	"github.com/fluxcd/pkg/ssa":                "v0.77.0",
	"github.com/google/go-cmp":                 "v0.7.0",
	"knative.dev/pkg":                          "v0.0.0-20260727151759-521cb33b33dd",
	"k8s.io/utils":                             "v0.0.0-20260507154919-ff6756f316d2",
	"k8s.io/klog/v2":                           "v2.140.0",
	"github.com/manifestival/manifestival":     "v0.7.2",
	"github.com/pkg/errors":                    "v0.9.1",
	"github.com/go-logr/logr":                  "v1.4.3",
	"go.uber.org/zap":                          "v1.28.0",
	"github.com/evanphx/json-patch/v5":         "v5.9.11",
	"gopkg.in/evanphx/json-patch.v4":           "v4.13.0",
	"github.com/cisco-open/k8s-objectmatcher":  "v1.10.0",
	"github.com/banzaicloud/k8s-objectmatcher": "v1.8.0",
	"github.com/prometheus/client_golang":      "v1.24.1",
}

// ssaDrift is the drift comparison of fluxcd/pkg/ssa's apply: named
// hasDrifted up to v0.73.0, hasDriftedWithIgnore (which strips ignored
// fields first) from v0.75.0.
var ssaDrift = []VersionedName{
	{Name: "hasDriftedWithIgnore", Since: "v0.75.0"},
	{Name: "hasDrifted", Before: "v0.75.0"},
}

const (
	cr          = "sigs.k8s.io/controller-runtime/pkg/"
	workqueue   = "k8s.io/client-go/util/workqueue."
	fluxCond    = "github.com/fluxcd/pkg/runtime/conditions."
	fluxMeta    = "github.com/fluxcd/pkg/apis/meta."
	fluxRuntime = "github.com/fluxcd/pkg/runtime/"
	fluxSSA     = "github.com/fluxcd/pkg/ssa."
	cache       = "k8s.io/client-go/tools/cache."
	knPkg       = "knative.dev/pkg/"
	kSets       = "k8s.io/apimachinery/pkg/util/sets."
	kClock      = "k8s.io/utils/clock."
	manifest    = "github.com/manifestival/manifestival."
	pkgErrors   = "github.com/pkg/errors."
	kRetry      = "k8s.io/client-go/util/retry."

	dynamicInformer = "k8s.io/client-go/dynamic/dynamicinformer."
)

// knowledge maps the fully qualified name of a library function or method
// (as funcKey spells it) to what it does. Adding a library is an edit here.
var knowledge = map[string]Fact{
	"(" + cr + "client.Reader).Get":             {Role: RoleRead, Key: 1, Obj: 2, Arg: -1},
	"(" + cr + "client.Reader).List":            {Role: RoleList, Key: -1, Obj: 1, Arg: -1},
	"(" + cache + "Store).GetByKey":             {Role: RoleRead, Key: 0, Obj: -1, Arg: -1},
	"(" + cache + "Indexer).ByIndex":            {Role: RoleRead, Key: 1, Obj: -1, Arg: -1},
	"(" + cache + "GenericLister).Get":          {Role: RoleRead, Key: 0, Obj: -1, Arg: -1},
	"(" + cache + "GenericNamespaceLister).Get": {Role: RoleRead, Key: 0, Obj: -1, Arg: -1},

	cr + "controller/controllerutil.CreateOrUpdate": {Role: RoleApply, Verb: verbCreateOrUpdate, Obj: 2, Key: -1, Arg: -1, Mutate: 3,
		Summary: "gets the live object, runs the mutate function on it, and updates it only when it then differs (creates it when absent)",
		Drift:   &DriftKnowledge{File: "controllerutil.go", Func: "CreateOrUpdate", Compare: []VersionedName{{Name: "DeepEqual"}}, Apply: "Update"}},
	cr + "controller/controllerutil.CreateOrPatch": {Role: RoleApply, Verb: verbCreateOrPatch, Obj: 2, Key: -1, Arg: -1, Mutate: 3,
		Summary: "gets the live object, runs the mutate function on it, and patches it only when it then differs (creates it when absent)",
		Drift:   &DriftKnowledge{File: "controllerutil.go", Func: "CreateOrPatch", Compare: []VersionedName{{Name: "DeepEqual"}}, Apply: "Patch"}},
	cr + "controller/controllerutil.AddFinalizer":                      {Role: RoleFinalizerAdd, Obj: 0, Key: -1, Arg: 1},
	cr + "controller/controllerutil.RemoveFinalizer":                   {Role: RoleFinalizerRemove, Obj: 0, Key: -1, Arg: 1},
	cr + "controller/controllerutil.ContainsFinalizer":                 {Role: RoleFinalizerHas, Obj: 0, Key: -1, Arg: 1},
	"(*k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta).SetFinalizers": {Role: RoleSetFinalizers, Obj: -1, Key: -1, Arg: 0},
	"(k8s.io/apimachinery/pkg/apis/meta/v1.Object).SetFinalizers":      {Role: RoleSetFinalizers, Obj: -1, Key: -1, Arg: 0},
	"(*k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta).GetFinalizers": {Role: RoleFinalizerList, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.SetMetaDataAnnotation":       {Role: RoleMetaEntrySet, Obj: 0, Key: -1, Arg: 1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.SetMetaDataLabel":            {Role: RoleMetaEntrySet, Obj: 0, Key: -1, Arg: 1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.HasAnnotation":               {Role: RoleMetaEntryHas, Obj: 0, Key: -1, Arg: 1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.HasLabel":                    {Role: RoleMetaEntryHas, Obj: 0, Key: -1, Arg: 1},
	"(k8s.io/apimachinery/pkg/apis/meta/v1.Object).GetFinalizers":      {Role: RoleFinalizerList, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/apimachinery/pkg/runtime.Object).DeepCopyObject":          {Role: RoleCopyOfReceiver, Obj: -1, Key: -1, Arg: -1},

	"k8s.io/apimachinery/pkg/api/meta.SetStatusCondition": {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1, ArgIsCondition: true},
	fluxCond + "IsReady":           {Role: RoleSteadyTest, Obj: 0, Key: -1, Arg: -1, True: true},
	fluxCond + "IsStalled":         {Role: RoleSteadyTest, Obj: 0, Key: -1, Arg: -1},
	fluxCond + "IsReconciling":     {Role: RoleSteadyTest, Obj: 0, Key: -1, Arg: -1},
	fluxCond + "IsTrue":            {Role: RoleSteadyTest, Obj: 0, Key: -1, Arg: 1, True: true},
	fluxCond + "IsFalse":           {Role: RoleSteadyTest, Obj: 0, Key: -1, Arg: 1},
	fluxCond + "MarkTrue":          {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1, True: true},
	fluxCond + "MarkFalse":         {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1},
	fluxCond + "MarkUnknown":       {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1},
	fluxCond + "Set":               {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1, ArgIsCondition: true},
	fluxCond + "SetSummary":        {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1},
	fluxCond + "SetMirror":         {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: 1},
	fluxCond + "MarkReconciling":   {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: -1, Implied: fluxMeta + "ReconcilingCondition", True: true},
	fluxCond + "MarkStalled":       {Role: RoleConditionSet, Obj: 0, Key: -1, Arg: -1, Implied: fluxMeta + "StalledCondition", True: true},
	cr + "reconcile.TerminalError": {Role: RoleTerminalError, Obj: -1, Key: -1, Arg: 0},
	"github.com/fluxcd/pkg/runtime/jitter.JitteredIntervalDuration": {Role: RoleJitter, Obj: -1, Key: -1, Arg: 0,
		Summary: "adds a random jitter to the duration, as configured by jitter.SetGlobalIntervalJitter (Flux's --interval-jitter-percentage flag, 5% by default)"},
	"github.com/fluxcd/pkg/runtime/jitter.JitteredRequeueInterval": {Role: RoleJitterResult, Obj: -1, Key: -1, Arg: 0,
		Summary: "hands the result back, a random jitter added to its RequeueAfter when that is positive, as configured by jitter.SetGlobalIntervalJitter (Flux's --interval-jitter-percentage flag, 5% by default)"},

	"(" + cr + "client.Writer).Create":                {Role: RoleWrite, Verb: verbCreate, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.Writer).Update":                {Role: RoleWrite, Verb: verbUpdate, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.Writer).Patch":                 {Role: RoleWrite, Verb: verbPatch, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.Writer).Apply":                 {Role: RoleWrite, Verb: verbApply, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.Writer).Delete":                {Role: RoleWrite, Verb: verbDelete, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.Writer).DeleteAllOf":           {Role: RoleWrite, Verb: verbDeleteAllOf, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.SubResourceWriter).Create":     {Role: RoleWrite, Verb: verbCreate, Target: "status", Status: true, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.SubResourceWriter).Update":     {Role: RoleWrite, Verb: verbUpdate, Target: "status", Status: true, Obj: 1, Key: -1, Arg: -1},
	"(" + cr + "client.SubResourceWriter).Patch":      {Role: RoleWrite, Verb: verbPatch, Target: "status", Status: true, Obj: 1, Key: -1, Arg: -1},
	"(*" + fluxRuntime + "patch.SerialPatcher).Patch": {Role: RoleWrite, Verb: verbPatch, Target: "metadata and status", Status: true, Obj: 1, Key: -1, Arg: -1},
	"(*" + fluxRuntime + "patch.Helper).Patch":        {Role: RoleWrite, Verb: verbPatch, Target: "metadata and status", Status: true, Obj: 1, Key: -1, Arg: -1},
	"(*" + fluxSSA + "ResourceManager).ApplyAllStaged": {Role: RoleApply, Verb: verbApply, Target: "the desired objects", Obj: -1, Key: -1, Arg: -1,
		Drift: &DriftKnowledge{File: "manager_apply.go", Func: "ApplyAll", Compare: ssaDrift, Apply: "apply"}},
	"(*" + fluxSSA + "ResourceManager).ApplyAll": {Role: RoleApply, Verb: verbApply, Target: "the desired objects", Obj: -1, Key: -1, Arg: -1,
		Drift: &DriftKnowledge{File: "manager_apply.go", Func: "ApplyAll", Compare: ssaDrift, Apply: "apply"}},
	"(*" + fluxSSA + "ResourceManager).Apply": {Role: RoleApply, Verb: verbApply, Target: "the desired object", Obj: -1, Key: -1, Arg: -1,
		Drift: &DriftKnowledge{File: "manager_apply.go", Func: "Apply", Compare: ssaDrift, Apply: "apply"}},
	// manifestival (Knative's operator): a manifest's Apply gets each of
	// its objects, creates the missing ones, and updates one only when the
	// merge patch from the live object to the manifest's is not empty.
	"(" + manifest + "Manifest).Apply": {Role: RoleApply, Verb: verbCreateOrUpdate, Target: "the manifest's objects", Obj: -1, Key: -1, Arg: -1,
		Summary: "gets each object of the manifest, creates it when absent, and updates it only when the merge patch from the live object is not empty",
		Drift:   &DriftKnowledge{File: "manifestival.go", Func: "apply", Compare: []VersionedName{{Name: "New"}}, Apply: "update"}},
	"(" + manifest + "Manifest).Delete":           {Role: RoleWrite, Verb: verbDelete, Target: "the manifest's objects", Obj: -1, Key: -1, Arg: -1},
	"(*" + fluxSSA + "ResourceManager).DeleteAll": {Role: RoleWrite, Verb: verbDelete, Target: "the inventory's objects", Obj: -1, Key: -1, Arg: -1},
	"(*" + fluxSSA + "ResourceManager).Delete":    {Role: RoleWrite, Verb: verbDelete, Target: "an inventory object", Obj: -1, Key: -1, Arg: -1},

	"(k8s.io/client-go/tools/record.EventRecorder).Event":           {Role: RoleEvent, Verb: VerbRecord, Obj: 0, Key: -1, Arg: -1},
	"(k8s.io/client-go/tools/record.EventRecorder).Eventf":          {Role: RoleEvent, Verb: VerbRecord, Obj: 0, Key: -1, Arg: -1},
	"(k8s.io/client-go/tools/record.EventRecorder).AnnotatedEventf": {Role: RoleEvent, Verb: VerbRecord, Obj: 0, Key: -1, Arg: -1},
	// events.EventRecorder is an alias of the internal package's interface
	// (already at v0.31.3; the internal package came with v0.30.0).
	"(k8s.io/client-go/tools/internal/events.EventRecorder).Eventf": {Role: RoleEvent, Verb: VerbRecord, Obj: 0, Key: -1, Arg: -1},
	"(k8s.io/client-go/tools/events.EventRecorder).Eventf":          {Role: RoleEvent, Verb: VerbRecord, Obj: 0, Key: -1, Arg: -1, Before: "v0.30.0"},

	"(*k8s.io/apimachinery/pkg/apis/meta/v1.Time).IsZero": {Role: RoleTimeIsZero, Obj: -1, Key: -1, Arg: -1},
	// Timers: a delayed call of a function (AfterFunc), or a channel the
	// caller waits on before it goes on (NewTimer, After).
	"time.AfterFunc": {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: 1},
	"time.NewTimer":  {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"time.After":     {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"(" + kClock + "WithDelayedExecution).AfterFunc":          {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: 1},
	"(" + kClock + "WithTickerAndDelayedExecution).AfterFunc": {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: 1},
	"(" + kClock + "Clock).NewTimer":                          {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"(" + kClock + "Clock).After":                             {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"(" + kClock + "RealClock).AfterFunc":                     {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: 1},
	"(" + kClock + "RealClock).NewTimer":                      {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"(" + kClock + "RealClock).After":                         {Role: RoleTimer, Obj: -1, Key: -1, Arg: 0, Callback: -1},
	"(" + kClock + "PassiveClock).Now":                        {Role: RoleClock, Obj: -1, Key: -1, Arg: -1},
	"(" + kClock + "RealClock).Now":                           {Role: RoleClock, Obj: -1, Key: -1, Arg: -1},
	"(time.Time).After":                                       {Role: RoleTimeOrder, Obj: -1, Key: -1, Arg: 0},
	"(time.Time).Before":                                      {Role: RoleTimeOrder, Obj: -1, Key: -1, Arg: 0},
	"(*k8s.io/apimachinery/pkg/apis/meta/v1.Time).Before":     {Role: RoleTimeOrder, Obj: -1, Key: -1, Arg: 0},
	"k8s.io/apimachinery/pkg/api/errors.IsNotFound":           {Role: RoleAbsentTest, Obj: 0, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/api/errors.IsAlreadyExists":      {Role: RoleTakenTest, Obj: 0, Key: -1, Arg: -1},
	"time.Now": {Role: RoleClock, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.Now":      {Role: RoleClock, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.NowMicro": {Role: RoleClock, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.NewTime":  {Role: RoleValue, Obj: -1, Key: -1, Arg: -1},
	"reflect.DeepEqual":                             {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1, Raw: true},
	"fmt.Errorf":                                    {Role: RoleNewError, Obj: -1, Key: -1, Arg: -1},
	"fmt.Sprintf":                                   {Role: RoleFormat, Obj: -1, Key: -1, Arg: 0},
	"encoding/json.Marshal":                         {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/util/json.Marshal":     {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/util/strategicpatch.CreateTwoWayMergePatch":             {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1, Diff: true},
	"github.com/evanphx/json-patch/v5.CreateMergePatch":                              {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1, Diff: true},
	"gopkg.in/evanphx/json-patch.v4.CreateMergePatch":                                {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1, Diff: true},
	"(" + cr + "client.Patch).Data":                                                  {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1, Diff: true},
	"k8s.io/klog/v2.KObj":                                                            {Role: RoleFormat, Obj: -1, Key: -1, Arg: -1},
	"(github.com/go-logr/logr.Logger).Error":                                         {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.Error":                                                           {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.Errorf":                                                          {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.ErrorS":                                                          {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Error":                                         {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Errorf":                                        {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Errorw":                                        {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Errorln":                                       {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.Logger).Error":                                                {Role: RoleLogError, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Info":                                          {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Infof":                                         {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Infow":                                         {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Debug":                                         {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Debugf":                                        {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Debugw":                                        {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Warn":                                          {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Warnf":                                         {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).Warnw":                                         {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.SugaredLogger).With":                                          {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.Logger).Info":                                                 {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.Logger).Debug":                                                {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.Logger).Warn":                                                 {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*go.uber.org/zap.Logger).With":                                                 {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(github.com/go-logr/logr.Logger).Info":                                          {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(github.com/go-logr/logr.Logger).V":                                             {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(github.com/go-logr/logr.Logger).WithValues":                                    {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(github.com/go-logr/logr.Logger).WithName":                                      {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.Info":                                                            {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.Infof":                                                           {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.InfoS":                                                           {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.Warningf":                                                        {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/klog/v2.V":                                                               {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/klog/v2.Verbose).Info":                                                  {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/klog/v2.Verbose).Infof":                                                 {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/klog/v2.Verbose).InfoS":                                                 {Role: RoleLog, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.GaugeVec).WithLabelValues":     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.GaugeVec).With":                {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.CounterVec).WithLabelValues":   {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.CounterVec).With":              {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.HistogramVec).WithLabelValues": {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.HistogramVec).With":            {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.SummaryVec).WithLabelValues":   {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(*github.com/prometheus/client_golang/prometheus.SummaryVec).With":              {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).Set":                     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).Inc":                     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).Dec":                     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).Add":                     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).Sub":                     {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Gauge).SetToCurrentTime":        {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Counter).Inc":                   {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Counter).Add":                   {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(github.com/prometheus/client_golang/prometheus.Observer).Observe":              {Role: RoleMetric, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/apimachinery/pkg/apis/meta/v1.Object).GetName":                          {Role: RoleMetaGet, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/apimachinery/pkg/apis/meta/v1.Object).GetNamespace":                     {Role: RoleMetaGet, Obj: -1, Key: -1, Arg: -1},
	"(*k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta).GetName":                     {Role: RoleMetaGet, Obj: -1, Key: -1, Arg: -1},
	"(*k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta).GetNamespace":                {Role: RoleMetaGet, Obj: -1, Key: -1, Arg: -1},
	"errors.New":               {Role: RoleNewError, Obj: -1, Key: -1, Arg: -1},
	pkgErrors + "Wrap":         {Role: RoleWrapError, Obj: -1, Key: -1, Arg: 0},
	pkgErrors + "Wrapf":        {Role: RoleWrapError, Obj: -1, Key: -1, Arg: 0},
	pkgErrors + "WithMessage":  {Role: RoleWrapError, Obj: -1, Key: -1, Arg: 0},
	pkgErrors + "WithMessagef": {Role: RoleWrapError, Obj: -1, Key: -1, Arg: 0},
	pkgErrors + "WithStack":    {Role: RoleWrapError, Obj: -1, Key: -1, Arg: 0},
	pkgErrors + "New":          {Role: RoleNewError, Obj: -1, Key: -1, Arg: -1},
	pkgErrors + "Errorf":       {Role: RoleNewError, Obj: -1, Key: -1, Arg: -1},
	kRetry + "RetryOnConflict": {Role: RoleRunsFunc, Obj: -1, Key: -1, Arg: 1},
	kRetry + "OnError":         {Role: RoleRunsFunc, Obj: -1, Key: -1, Arg: 2},
	"maps.Equal":               {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"maps.EqualFunc":           {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"slices.Equal":             {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"slices.EqualFunc":         {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"bytes.Equal":              {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	// equality.Semantic is a conversion.Equalities, whose DeepEqual and
	// DeepDerivative are promoted from the forked reflect package's
	// Equalities: a call resolves to the declaring type's method.
	"(k8s.io/apimachinery/third_party/forked/golang/reflect.Equalities).DeepEqual":      {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/apimachinery/third_party/forked/golang/reflect.Equalities).DeepDerivative": {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	"github.com/google/go-cmp/cmp.Equal":                                                {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1},
	// k8s-objectmatcher: a patch calculated from the current and the
	// modified object (PatchMaker.Calculate) is empty when they agree.
	"(*github.com/cisco-open/k8s-objectmatcher/patch.PatchResult).IsEmpty":  {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1, Receiver: true},
	"(*github.com/banzaicloud/k8s-objectmatcher/patch.PatchResult).IsEmpty": {Role: RoleCompare, Obj: -1, Key: -1, Arg: -1, Receiver: true},

	"(" + workqueue + "TypedInterface).Get":                        {Role: RoleQueueGet, Obj: -1, Key: -1, Arg: -1},
	"(" + workqueue + "Interface).Get":                             {Role: RoleQueueGet, Obj: -1, Key: -1, Arg: -1, Before: "v0.31.0"},
	"(" + workqueue + "TypedInterface).Add":                        {Role: RoleQueueAdd, Obj: -1, Key: 0, Arg: -1},
	"(" + workqueue + "Interface).Add":                             {Role: RoleQueueAdd, Obj: -1, Key: 0, Arg: -1, Before: "v0.31.0"},
	"(" + workqueue + "TypedRateLimitingInterface).AddRateLimited": {Role: RoleQueueAddRateLimited, Obj: -1, Key: 0, Arg: -1},
	"(" + workqueue + "RateLimitingInterface).AddRateLimited":      {Role: RoleQueueAddRateLimited, Obj: -1, Key: 0, Arg: -1, Before: "v0.31.0"},
	"(" + workqueue + "TypedRateLimitingInterface).Forget":         {Role: RoleQueueForget, Obj: -1, Key: 0, Arg: -1},
	"(" + workqueue + "RateLimitingInterface).Forget":              {Role: RoleQueueForget, Obj: -1, Key: 0, Arg: -1, Before: "v0.31.0"},
	"(" + workqueue + "TypedDelayingInterface).AddAfter":           {Role: RoleQueueAddAfter, Obj: -1, Key: 0, Arg: 1},
	"(" + workqueue + "DelayingInterface).AddAfter":                {Role: RoleQueueAddAfter, Obj: -1, Key: 0, Arg: 1, Before: "v0.31.0"},
	// controller-runtime's priority queue, used as a client-go workqueue.
	"(" + cr + "controller/priorityqueue.PriorityQueue).GetWithPriority": {Role: RoleQueueGet, Obj: -1, Key: -1, Arg: -1},
	"(" + cr + "controller/priorityqueue.PriorityQueue).AddWithOpts":     {Role: RoleQueueAddWithOpts, Obj: -1, Key: 1, Arg: 0},

	"(*" + cr + "builder.TypedBuilder).For": {Role: RoleRegisterFor, Obj: -1, Key: -1, Arg: 0},
	// controller.New(name, mgr, controller.Options{Reconciler: r}) then
	// c.Watch(source.Kind(cache, &T{}, handler)).
	cr + "controller.New":                               {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 2, ArgIsOptions: true},
	cr + "controller.NewTyped":                          {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 2, ArgIsOptions: true},
	cr + "controller.NewUnmanaged":                      {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 1, ArgIsOptions: true},
	cr + "controller.NewTypedUnmanaged":                 {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 1, ArgIsOptions: true},
	cr + "source.Kind":                                  {Role: RoleRegisterFor, Obj: -1, Key: -1, Arg: 1},
	cr + "source.TypedKind":                             {Role: RoleRegisterFor, Obj: -1, Key: -1, Arg: 1},
	"(*" + cr + "builder.Builder).For":                  {Role: RoleRegisterFor, Obj: -1, Key: -1, Arg: 0, Before: "v0.19.0"},
	"(*" + cr + "builder.TypedBuilder).Watches":         {Role: RoleRegisterWatch, Obj: -1, Key: -1, Arg: 0},
	"(*" + cr + "builder.TypedBuilder).WatchesMetadata": {Role: RoleRegisterWatch, Obj: -1, Key: -1, Arg: 0},
	"(*" + cr + "builder.TypedBuilder).Complete":        {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 0},
	"(*" + cr + "builder.Builder).Complete":             {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 0, Before: "v0.19.0"},
	"(*" + cr + "builder.TypedBuilder).Build":           {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 0},
	// reconcile.Func(fn) (an alias of TypedFunc[Request]) registers fn.
	"(" + cr + "reconcile.TypedFunc).Reconcile": {Role: RoleReconcileFunc, Obj: -1, Key: -1, Arg: -1},
	// reconcile.AsReconciler(client, rec): the adapter's Reconcile Gets
	// the object by the key and calls rec.Reconcile(ctx, obj).
	cr + "reconcile.AsReconciler": {Role: RoleObjectReconciler, Obj: -1, Key: -1, Arg: 1,
		Adapter: &AdapterKnowledge{File: "reconcile.go", Type: "objectReconcilerAdapter", Method: "Reconcile", Read: "Get"}},
	"(*" + cr + "builder.Builder).Build": {Role: RoleRegisterComplete, Obj: -1, Key: -1, Arg: 0, Before: "v0.19.0"},

	"(*k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta).GetDeletionTimestamp": {Role: RoleDeletionTimestamp, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/apimachinery/pkg/apis/meta/v1.Object).GetDeletionTimestamp":      {Role: RoleDeletionTimestamp, Obj: -1, Key: -1, Arg: -1},
	"k8s.io/apimachinery/pkg/apis/meta/v1.NewControllerRef":                   {Role: RoleOwnerRef, Obj: 0, Key: -1, Arg: -1},
	cr + "controller/controllerutil.SetControllerReference":                   {Role: RoleOwnerRef, Obj: 0, Key: -1, Arg: -1},
	cr + "controller/controllerutil.SetOwnerReference":                        {Role: RoleOwnerRef, Obj: 0, Key: -1, Arg: -1},

	"k8s.io/client-go/informers.NewSharedInformerFactory":            {Role: RoleInformerFactory, Obj: -1, Key: -1, Arg: 1},
	"k8s.io/client-go/informers.NewSharedInformerFactoryWithOptions": {Role: RoleInformerFactory, Obj: -1, Key: -1, Arg: 1},
	"k8s.io/client-go/informers.NewFilteredSharedInformerFactory":    {Role: RoleInformerFactory, Obj: -1, Key: -1, Arg: 1},

	"(" + cache + "SharedInformer).AddEventHandler":                         {Role: RoleAddHandler, Obj: -1, Key: -1, Arg: 0},
	"(" + cache + "SharedInformer).AddEventHandlerWithResyncPeriod":         {Role: RoleAddHandler, Obj: -1, Key: -1, Arg: 0},
	"(" + cache + "SharedInformer).AddEventHandlerWithOptions":              {Role: RoleAddHandler, Obj: -1, Key: -1, Arg: 0},
	cache + "NewSharedInformer":                                             {Role: RoleNewInformer, Obj: -1, Key: -1, Arg: 1},
	cache + "NewSharedIndexInformer":                                        {Role: RoleNewInformer, Obj: -1, Key: -1, Arg: 1},
	cache + "NewSharedIndexInformerWithOptions":                             {Role: RoleNewInformer, Obj: -1, Key: -1, Arg: 1},
	dynamicInformer + "NewDynamicSharedInformerFactory":                     {Role: RoleNewDynamicInformer, Obj: -1, Key: -1, Arg: -1},
	dynamicInformer + "NewFilteredDynamicSharedInformerFactory":             {Role: RoleNewDynamicInformer, Obj: -1, Key: -1, Arg: -1},
	dynamicInformer + "NewFilteredDynamicInformer":                          {Role: RoleNewDynamicInformer, Obj: -1, Key: -1, Arg: -1},
	"(k8s.io/client-go/tools/record.EventBroadcaster).StartRecordingToSink": {Role: RoleEventSink, Obj: -1, Key: -1, Arg: -1},
	cr + "handler.EnqueueRequestForOwner":                                   {Role: RoleEnqueueOwner, Obj: -1, Key: -1, Arg: 2},
	cr + "handler.TypedEnqueueRequestForOwner":                              {Role: RoleEnqueueOwner, Obj: -1, Key: -1, Arg: 2},
	// A FIFO whose items are the objects (events), not keys.
	"(*" + cache + "FIFO).Pop":      {Role: RoleQueuePop, Obj: -1, Key: -1, Arg: 0},
	"(*" + cache + "DeltaFIFO).Pop": {Role: RoleQueuePop, Obj: -1, Key: -1, Arg: 0},
	"(*" + cache + "RealFIFO).Pop":  {Role: RoleQueuePop, Obj: -1, Key: -1, Arg: 0},
	"(" + cache + "Queue).Pop":      {Role: RoleQueuePop, Obj: -1, Key: -1, Arg: 0},

	// Generated reconcilers: a controller.Impl runs the Reconcile(ctx, key)
	// of the reconciler it is handed (its worker and queue are the
	// dependency's); the hand-written ReconcileKind returns an event whose
	// kind says what the queue does with the key; conditions are set through
	// the kind's condition set; the generated finalizer code keeps the
	// finalizers in a string set built from the object's list.
	knPkg + "controller.NewContext": {Role: RoleRunSync, Obj: -1, Key: -1, Arg: 1, Loop: knLoop},
	// NewImpl and NewImplFull are gone from the version checked (their
	// removal is older; Before marks the version checked without them):
	// older trees still call them (their controller's worker and queue
	// are looked for by the same names; a version that lacks one is
	// warned about and its stage not settled).
	knPkg + "controller.NewImpl":                                {Role: RoleRunSync, Obj: -1, Key: -1, Arg: 0, Before: "v0.0.0-20260727151759-521cb33b33dd", Loop: knLoop},
	knPkg + "controller.NewImplFull":                            {Role: RoleRunSync, Obj: -1, Key: -1, Arg: 0, Before: "v0.0.0-20260727151759-521cb33b33dd", Loop: knLoop},
	knPkg + "controller.NewRequeueAfter":                        {Role: RoleRequeueAfterEvent, Obj: -1, Key: -1, Arg: 0},
	knPkg + "controller.NewRequeueImmediately":                  {Role: RoleRequeueAfterEvent, Obj: -1, Key: -1, Arg: -1},
	knPkg + "reconciler.NewEvent":                               {Role: RoleReconcileEvent, Obj: -1, Key: -1, Arg: 0},
	knPkg + "controller.NewPermanentError":                      {Role: RoleTerminalError, Obj: -1, Key: -1, Arg: 0},
	knPkg + "controller.NewSkipKey":                             {Role: RoleSkipKey, Obj: -1, Key: -1, Arg: 0},
	"(*" + knPkg + "controller.Impl).EnqueueAfter":              {Role: RoleQueueAddAfter, Obj: 0, Key: -1, Arg: 1},
	"(*" + knPkg + "controller.Impl).EnqueueKeyAfter":           {Role: RoleQueueAddAfter, Obj: -1, Key: 0, Arg: 1},
	"(" + knPkg + "apis.ConditionManager).MarkTrue":             {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: 0, True: true},
	"(" + knPkg + "apis.ConditionManager).MarkTrueWithReason":   {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: 0, True: true},
	"(" + knPkg + "apis.ConditionManager).MarkFalse":            {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: 0},
	"(" + knPkg + "apis.ConditionManager).MarkUnknown":          {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: 0},
	"(" + knPkg + "apis.ConditionManager).InitializeConditions": {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: -1},
	"(" + knPkg + "apis.ConditionManager).SetCondition":         {Role: RoleManagedCondition, Obj: -1, Key: -1, Arg: 0, ArgIsCondition: true},
	knPkg + "apis.NewLivingConditionSet":                        {Role: RoleNewConditionSet, Obj: -1, Key: -1, Arg: -1, Implied: knPkg + "apis.ConditionReady"},
	knPkg + "apis.NewBatchConditionSet":                         {Role: RoleNewConditionSet, Obj: -1, Key: -1, Arg: -1, Implied: knPkg + "apis.ConditionSucceeded"},
	"(" + kSets + "Set).Insert":                                 {Role: RoleSetInsert, Obj: -1, Key: -1, Arg: 0},
	"(" + kSets + "Set).Delete":                                 {Role: RoleSetDelete, Obj: -1, Key: -1, Arg: 0},
	"(" + kSets + "String).Insert":                              {Role: RoleSetInsert, Obj: -1, Key: -1, Arg: 0},
	"(" + kSets + "String).Delete":                              {Role: RoleSetDelete, Obj: -1, Key: -1, Arg: 0},

	// The watches of generated reconcilers: HandleAll makes a handler
	// whose add, update and delete hand the object to one function
	// (PassNew adapts it to an update's), usually one of the controller's
	// enqueues, which end in its workqueue's Add.
	knPkg + "controller.HandleAll": {Role: RoleHandleAll, Obj: -1, Key: -1, Arg: 0},
	knPkg + "controller.PassNew":   {Role: RoleHandlerPass, Obj: -1, Key: -1, Arg: 0},
	"(*" + knPkg + "controller.Impl).Enqueue": {Role: RoleImplEnqueue, Obj: 0, Key: -1, Arg: -1,
		Summary: "adds the object's namespace/name to the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueSlow": {Role: RoleImplEnqueue, Obj: 0, Key: -1, Arg: -1,
		Summary: "adds the object's namespace/name to the slow lane of the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueControllerOf": {Role: RoleImplEnqueue, Obj: 0, Key: -1, Arg: -1,
		Summary: "adds the namespace/name of the object's controller (its controlling owner reference) to the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueNamespaceOf": {Role: RoleImplEnqueue, Obj: 0, Key: -1, Arg: -1,
		Summary: "adds the name of the object's namespace to the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueKey": {Role: RoleImplEnqueue, Obj: -1, Key: 0, Arg: -1,
		Summary: "adds the key to the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueSlowKey": {Role: RoleImplEnqueue, Obj: -1, Key: 0, Arg: -1,
		Summary: "adds the key to the slow lane of the controller's workqueue"},
	"(*" + knPkg + "controller.Impl).EnqueueSentinel": {Role: RoleImplEnqueue, Obj: -1, Key: 0, Arg: -1,
		Summary: "returns a handler function that adds this fixed key, whatever the object"},
	"(*" + knPkg + "controller.Impl).EnqueueLabelOfNamespaceScopedResource": {Role: RoleImplEnqueue, Obj: -1, Key: -1, Arg: -1,
		Summary: "returns a handler function that adds the namespace/name the object's labels name"},
	"(*" + knPkg + "controller.Impl).EnqueueLabelOfClusterScopedResource": {Role: RoleImplEnqueue, Obj: -1, Key: -1, Arg: -1,
		Summary: "returns a handler function that adds the name the object's label names"},
}

// knLoop is where the generated reconcilers' controller keeps its worker
// and queue.
var knLoop = &LoopKnowledge{File: "controller.go", Worker: "processNextWorkItem", Errors: "handleErr", Enqueue: "EnqueueKey",
	Get: "Get", Sync: "Reconcile", Add: "Add", AddRateLimited: "AddRateLimited", AddAfter: "AddAfter"}

// VerbRecord is the verb of a recorded event: a write that no informer of
// the controller watches, so it brings no object back.
const VerbRecord = "record"

// The verbs of writes.
const (
	verbCreate = "create"
	verbUpdate = "update"
	verbPatch  = "patch"
	verbApply  = "apply"
	// verbCreateOrUpdate and verbCreateOrPatch write what differs from
	// the live object, or create it.
	verbCreateOrUpdate = "create or update"
	verbCreateOrPatch  = "create or patch"
	verbDelete         = "delete"
	// verbDeleteAllOf deletes every object of a type that matches its
	// options (a namespace, labels): the children, by their labels.
	verbDeleteAllOf = "delete-all-of"
)

// The informer events, and eventNested for a field holding a nested
// handler (a filtering handler's Handler).
const (
	eventAdd    = "add"
	eventUpdate = "update"
	eventDelete = "delete"
	eventNested = "handler"
)

// handlerFields maps the function-valued fields of client-go's event handler
// structs to the informer event that calls them.
var handlerFields = map[string]string{
	cache + "ResourceEventHandlerFuncs.AddFunc":            eventAdd,
	cache + "ResourceEventHandlerFuncs.UpdateFunc":         eventUpdate,
	cache + "ResourceEventHandlerFuncs.DeleteFunc":         eventDelete,
	cache + "ResourceEventHandlerDetailedFuncs.AddFunc":    eventAdd,
	cache + "ResourceEventHandlerDetailedFuncs.UpdateFunc": eventUpdate,
	cache + "ResourceEventHandlerDetailedFuncs.DeleteFunc": eventDelete,
	cache + "FilteringResourceEventHandler.Handler":        eventNested,
}

// knOptions is the options a generated reconciler's constructor is
// handed; knSkipStatusUpdates the field of it that, set, keeps the
// generated Reconcile from writing the status back.
const (
	knOptions           = knPkg + "controller.Options"
	knSkipStatusUpdates = "SkipStatusUpdates"
)

// handlerFilterField is the field of client-go's filtering handler whose
// function decides which objects reach the handler it wraps.
const handlerFilterField = cache + "FilteringResourceEventHandler.FilterFunc"

// rawMisjudged maps the types a raw deep comparison (a RoleCompare entry
// marked Raw) may find different while they hold the same value, to why.
var rawMisjudged = map[string]string{
	"k8s.io/apimachinery/pkg/api/resource.Quantity": "a resource.Quantity keeps its text cached, and one built in the pass and one decoded from the cluster may hold it differently",
}

// metaV1 is the package of the API objects' metadata types.
const metaV1 = "k8s.io/apimachinery/pkg/apis/meta/v1"

// kindTypes name a kind of object (which resource, which group and
// version): a test of one asks what kind of object this is, not whether
// its state is the desired one.
var kindTypes = map[string]bool{
	"k8s.io/apimachinery/pkg/runtime/schema.GroupResource":        true,
	"k8s.io/apimachinery/pkg/runtime/schema.GroupVersionResource": true,
	"k8s.io/apimachinery/pkg/runtime/schema.GroupKind":            true,
	"k8s.io/apimachinery/pkg/runtime/schema.GroupVersionKind":     true,
}

// typeGroupVersion names an API group at a version: its fields, like a
// kind's, say which objects these are.
const typeGroupVersion = "k8s.io/apimachinery/pkg/runtime/schema.GroupVersion"

// Types the locators recognise by identity.
const (
	typeResult     = cr + "reconcile.Result"
	typeObjectMeta = "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta"
	// typeMetaObject is the interface every object's metadata satisfies.
	typeMetaObject            = "k8s.io/apimachinery/pkg/apis/meta/v1.Object"
	typePartialObjectMetadata = "k8s.io/apimachinery/pkg/apis/meta/v1.PartialObjectMetadata"
	// typeEnqueueForObject is the handler that queues the key of the
	// object watched itself.
	typeEnqueueForObject = cr + "handler.TypedEnqueueRequestForObject"
	typeTypeMeta         = "k8s.io/apimachinery/pkg/apis/meta/v1.TypeMeta"
	typeGetOptions       = "k8s.io/apimachinery/pkg/apis/meta/v1.GetOptions"
	typeListOptions      = "k8s.io/apimachinery/pkg/apis/meta/v1.ListOptions"
	typeCondition        = "k8s.io/apimachinery/pkg/apis/meta/v1.Condition"
	// typeOwnerReference links an object to its owner: a test of its
	// fields asks who owns the object.
	typeOwnerReference = "k8s.io/apimachinery/pkg/apis/meta/v1.OwnerReference"
	typeRequest        = cr + "reconcile.Request"
	// typeNamespacedName is an object's key (client.ObjectKey too).
	typeNamespacedName = "k8s.io/apimachinery/pkg/types.NamespacedName"
	typeContext        = "context.Context"
	// typeUnstructured holds an object's content in a map: an object that
	// is one, or embeds one, keeps its status where no field's type says.
	typeUnstructured = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured"
	// The fields a condition literal and a reconcile result are read by.
	fieldConditionType      = typeCondition + ".Type"
	fieldConditionStatus    = typeCondition + ".Status"
	fieldResultRequeue      = typeResult + ".Requeue"
	fieldResultRequeueAfter = typeResult + ".RequeueAfter"
	// methodReconcile is the reconciler's entry.
	methodReconcile = "Reconcile"
	// methodDeepCopyObject is the method of runtime.Object every API
	// object type declares for itself (the others its TypeMeta and
	// ObjectMeta promote).
	methodDeepCopyObject   = "DeepCopyObject"
	fieldDeletionTimestamp = typeObjectMeta + ".DeletionTimestamp"
	fieldFinalizers        = typeObjectMeta + ".Finalizers"
	// typeApplyObjectMeta is an apply configuration's metadata (server-side
	// apply), and fieldApplyFinalizers its finalizer list.
	typeApplyObjectMeta  = "k8s.io/client-go/applyconfigurations/meta/v1.ObjectMetaApplyConfiguration"
	fieldApplyFinalizers = typeApplyObjectMeta + ".Finalizers"
	// applyConfigurationSuffix ends the name applyconfiguration-gen gives
	// a kind's apply configuration (ConfigMap → ConfigMapApplyConfiguration).
	applyConfigurationSuffix = "ApplyConfiguration"
	// methodAddAfter is the name a workqueue's AddAfter is looked up by
	// (the method found is then recognised by its key).
	methodAddAfter = "AddAfter"
	// specField is the field holding an API object's desired state, and
	// statusField its observed state.
	specField   = "Spec"
	statusField = "Status"
	// optionsReconciler is the field of controller.Options holding the
	// reconciler.
	optionsReconciler = "Reconciler"
	// Generated code has no shared declaration to key on, so its shape is
	// the knowledge: informer factories of generated clientsets are named
	// like client-go's own and take the resync period second.
	generatedFactoryName = "NewSharedInformerFactory"
	// Generated listers and typed clients read an object with a method of
	// this name: Get(name) or Get(ctx, name, metav1.GetOptions).
	generatedGetMethod = "Get"
	// Generated informers hand out their lister with this method, whose
	// List returns []*T: the type the informer watches.
	generatedListerMethod = "Lister"
	generatedListMethod   = "List"
	// typeEvent is what a generated reconciler's hand-written methods
	// return; generatedKindMethod and generatedFinalizeMethod are those
	// methods, declared by the generated Interface and Finalizer.
	typeEvent = knPkg + "reconciler.Event"
	// typeReconcilerEvent is the concrete event a reconcile returns (its
	// EventType, Reason, …), which the generated Reconcile records.
	typeReconcilerEvent     = knPkg + "reconciler.ReconcilerEvent"
	generatedKindMethod     = "ReconcileKind"
	generatedFinalizeMethod = "FinalizeKind"
	// configMapData is the field holding a config map's settings: a
	// duration read from it under a key is a setting of the controller's
	// configuration (knative.dev/pkg's config stores), not of the object.
	configMapData = "k8s.io/api/core/v1.ConfigMap.Data"
	// eventTypeNormal is the type of an event that reports no failure
	// (corev1.EventTypeNormal): returned from ReconcileKind, nothing is
	// requeued.
	eventTypeNormal = "Normal"
)

// clientsetVerbs: a generated typed client's write methods take an options
// struct of apimachinery's; its type says the verb.
var clientsetVerbs = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.CreateOptions": verbCreate,
	"k8s.io/apimachinery/pkg/apis/meta/v1.UpdateOptions": verbUpdate,
	"k8s.io/apimachinery/pkg/apis/meta/v1.PatchOptions":  verbPatch,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ApplyOptions":  verbApply,
	"k8s.io/apimachinery/pkg/apis/meta/v1.DeleteOptions": verbDelete,
}

// writerTypes are the client types through which a library's function may
// write: a function the table does not name that holds one (a field of
// its receiver, a parameter) is read for the writes it makes
// (writes_library.go).
var writerTypes = map[string]bool{
	cr + "client.Client":                    true,
	cr + "client.Writer":                    true,
	cr + "client.StatusWriter":              true,
	cr + "client.SubResourceWriter":         true,
	cr + "client.WithWatch":                 true,
	"k8s.io/client-go/kubernetes.Interface": true,
	"k8s.io/client-go/dynamic.Interface":    true,
}

// managerTypes are the types of a controller manager: a library's function
// the table does not name that is handed one is read for the controllers
// it registers (find_library.go).
var managerTypes = map[string]bool{
	cr + "manager.Manager": true,
}

// resyncFields are the options fields that set a controller-runtime cache's
// resync period, each with the controller-runtime version it is gone from
// ("": it is still there): manager.Options.SyncPeriod moved into
// cache.Options with v0.16.0.
var resyncFields = map[string]string{
	cr + "cache.Options.SyncPeriod":   "",
	cr + "manager.Options.SyncPeriod": "v0.16.0",
}

// generatedStatusWrites are the method names generated typed clients give
// their writes of the status subresource; statusSubresource is the
// subresource their other writes (Patch) are handed to write it.
var generatedStatusWrites = map[string]bool{"UpdateStatus": true, "ApplyStatus": true}

const statusSubresource = "status"

// conditionTrue is the value of metav1.ConditionTrue.
const conditionTrue = "True"

// readyConditionType is the condition type that says an object is ready
// (fluxcd/pkg's meta.ReadyCondition, Kubernetes' own "Ready"): true on a
// succeeding pass of an unchanged object.
const readyConditionType = "Ready"
