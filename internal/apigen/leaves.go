package apigen

const (
	metav1Import = "k8s.io/apimachinery/pkg/apis/meta/v1"
	resource     = "k8s.io/apimachinery/pkg/api/resource"
	intstr       = "k8s.io/apimachinery/pkg/util/intstr"
	kruntime     = "k8s.io/apimachinery/pkg/runtime"
	apiextv1     = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	corev1       = "k8s.io/api/core/v1"
)

// Leaves are the leaf types APIs are drawn from. Values hold what clients
// write, tricky text included: escapes, explicit zeros, the extremes of
// integers, quantities and durations that encode other than written.
var (
	leafString = &LeafType{Go: "string", Values: []string{`""`, `"a"`, `"b"`, `"h\u00e9llo"`, `"\u0056"`, `"<&>"`}, Zero: `""`, Ordered: true}
	leafInt32  = &LeafType{Go: "int32", Values: []string{`0`, `1`, `-7`, `2147483647`}, Zero: `0`, Ordered: true, Width: 32}
	leafInt64  = &LeafType{Go: "int64", Values: []string{`0`, `3`, `-1`, `9007199254740993`, `9223372036854775807`}, Zero: `0`, Ordered: true, Width: 64}
	leafBool   = &LeafType{Go: "bool", Values: []string{`false`, `true`}, Zero: `false`, Ordered: true}
	leafBytes  = &LeafType{Go: "[]byte", Values: []string{`""`, `"aGk="`, `"AAEC"`}, Zero: `null`, Nullable: true}
	leafTime   = &LeafType{Go: "metav1.Time", Import: metav1Import, Alias: "metav1",
		Values: []string{`"2030-01-02T03:04:05Z"`, `"1999-12-31T23:59:59Z"`}, Zero: `null`}
	leafMicroTime = &LeafType{Go: "metav1.MicroTime", Import: metav1Import, Alias: "metav1",
		Values: []string{`"2030-01-02T03:04:05.123456Z"`, `"2030-01-02T03:04:05.000000Z"`}, Zero: `null`}
	leafDuration = &LeafType{Go: "metav1.Duration", Import: metav1Import, Alias: "metav1",
		Values: []string{`"0s"`, `"1m30s"`, `"90s"`, `"1h"`}, Zero: `"0s"`}
	leafQuantity = &LeafType{Go: "resource.Quantity", Import: resource, Alias: "resource",
		Values: []string{`"0"`, `"1"`, `"1.5Gi"`, `"500m"`, `"1e3"`, `0`, `2`}, Zero: `"0"`}
	leafIntOrString = &LeafType{Go: "intstr.IntOrString", Import: intstr, Alias: "intstr",
		Values: []string{`0`, `8080`, `"http"`, `"50%"`, `""`}, Zero: `0`}
	leafRaw = &LeafType{Go: "runtime.RawExtension", Import: kruntime, Alias: "runtime",
		Values: []string{`{}`, `{"a":1}`, `{"b":[1,"x",null],"c":{"d":true}}`}, Zero: `null`, Nullable: true}
	leafJSON = &LeafType{Go: "apiextensionsv1.JSON", Import: apiextv1, Alias: "apiextensionsv1",
		Values: []string{`1`, `"x"`, `"\u0056"`, `[1,2]`, `{"k":"v"}`, `true`}, Zero: `null`}
	leafLocalRef = &LeafType{Go: "corev1.LocalObjectReference", Import: corev1, Alias: "corev1",
		Values: []string{`{}`, `{"name":"x"}`, `{"name":""}`}, Zero: `{}`}
	leafStringMap = &LeafType{Go: "map[string]string", Values: []string{`{}`, `{"a":"b"}`, `{"k":"","z":"\u00e9"}`}, Zero: `null`, Nullable: true}
)

// leaves are the leaf types fields are drawn from, the common ones more
// than once.
var leaves = []*LeafType{
	leafString, leafString, leafString, leafInt32, leafInt32, leafInt64, leafBool, leafBool,
	leafBytes, leafTime, leafMicroTime, leafDuration, leafQuantity, leafIntOrString, leafRaw,
	leafJSON, leafLocalRef, leafStringMap,
}
