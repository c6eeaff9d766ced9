// Command k8sschema writes JSON schemas of Kubernetes kinds, made from the
// Go types of k8s.io/api, in the file layout kubeconform reads
// (<kind>-<group>-<version>.json, lower case). It exists because no schema
// can be downloaded where Weir's CI runs: the chart's rendered manifests
// are validated against these instead.
//
//	go run ./tools/k8sschema -out DIR   (from tools/k8sschema: go run . -out DIR)
//	kubeconform -strict -schema-location 'DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json' manifests.yaml
//
// A schema follows what the API server's decoder accepts for the Go type:
// a struct is an object whose properties are its JSON fields and nothing
// else (additionalProperties false, so a misspelt or misplaced key is an
// error), a field without omitempty that is not a pointer is required,
// pointers, slices and maps also accept null, and the types that marshal
// themselves (Quantity, IntOrString, Time, Duration, RawExtension) get the
// JSON shape they marshal to.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func main() {
	out := flag.String("out", "", "directory to write the schemas to")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "k8sschema: give -out DIR")
		os.Exit(2)
	}
	n, err := write(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "k8sschema:", err)
		os.Exit(1)
	}
	fmt.Printf("k8sschema: %d schemas in %s\n", n, *out)
}

// write makes the scheme of the groups Weir's chart may render and writes
// one schema per kind; it returns how many it wrote.
func write(dir string) (int, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, policyv1.AddToScheme, autoscalingv2.AddToScheme,
		batchv1.AddToScheme, networkingv1.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return 0, fmt.Errorf("register types: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("make %s: %w", dir, err)
	}
	n := 0
	for gvk, typ := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "Options") || gvk.Kind == "WatchEvent" {
			continue
		}
		s := objectSchema(typ, gvk.Group, gvk.Version, gvk.Kind)
		data, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return n, fmt.Errorf("%s: %w", gvk, err)
		}
		name := strings.ToLower(gvk.Kind) + kindSuffix(gvk.Group, gvk.Version) + ".json"
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return n, fmt.Errorf("write %s: %w", name, err)
		}
		n++
	}
	return n, nil
}

// kindSuffix is kubeconform's {{ .KindSuffix }}: -version for the core
// group, else -<first label of the group>-version.
func kindSuffix(group, version string) string {
	if group == "" {
		return "-" + version
	}
	return "-" + strings.ToLower(strings.Split(group, ".")[0]) + "-" + version
}

// objectSchema is the schema of a top-level kind: its type's schema with
// apiVersion and kind pinned to the one group, version and kind.
func objectSchema(t reflect.Type, group, version, kind string) map[string]any {
	s := typeSchema(t, map[reflect.Type]bool{})
	props := s["properties"].(map[string]any)
	apiVersion := version
	if group != "" {
		apiVersion = group + "/" + version
	}
	props["apiVersion"] = map[string]any{"type": "string", "enum": []string{apiVersion}}
	props["kind"] = map[string]any{"type": "string", "enum": []string{kind}}
	s["$schema"] = "http://json-schema.org/draft-07/schema#"
	s["required"] = appendUnique(s["required"], "apiVersion", "kind")
	return s
}

var (
	quantityType    = reflect.TypeOf(resource.Quantity{})
	intOrStringType = reflect.TypeOf(intstr.IntOrString{})
	timeType        = reflect.TypeOf(metav1.Time{})
	microTimeType   = reflect.TypeOf(metav1.MicroTime{})
	durationType    = reflect.TypeOf(metav1.Duration{})
	rawType         = reflect.TypeOf(runtime.RawExtension{})
	fieldsV1Type    = reflect.TypeOf(metav1.FieldsV1{})
)

// typeSchema is the schema of one Go type. seen holds the struct types
// being expanded, so that a recursive type (JSONSchemaProps-like) becomes
// an open object rather than an endless expansion.
func typeSchema(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	switch t {
	case quantityType:
		return map[string]any{"type": []string{"string", "number"}}
	case intOrStringType:
		return map[string]any{"type": []string{"string", "integer"}}
	case timeType, microTimeType:
		return map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
	case durationType:
		return map[string]any{"type": "string"}
	case rawType, fieldsV1Type:
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(typeSchema(t.Elem(), seen))
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": []string{"string", "null"}} // []byte: base64
		}
		return map[string]any{"type": []string{"array", "null"}, "items": typeSchema(t.Elem(), seen)}
	case reflect.Map:
		return map[string]any{"type": []string{"object", "null"}, "additionalProperties": typeSchema(t.Elem(), seen)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if seen[t] {
			return map[string]any{"type": "object"}
		}
		seen[t] = true
		defer delete(seen, t)
		props := map[string]any{}
		var required []string
		addFields(t, props, &required, seen)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			sort.Strings(required)
			s["required"] = required
		}
		return s
	}
	return map[string]any{}
}

// addFields adds the JSON fields of struct t, those of inline embedded
// structs included, to props.
func addFields(t reflect.Type, props map[string]any, required *[]string, seen map[reflect.Type]bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(ft, props, required, seen)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		props[name] = typeSchema(f.Type, seen)
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") || f.Type.Kind() == reflect.Pointer
		if !optional {
			*required = append(*required, name)
		}
	}
}

// nullable lets a schema also accept null.
func nullable(s map[string]any) map[string]any {
	switch tp := s["type"].(type) {
	case string:
		s["type"] = []string{tp, "null"}
	case []string:
		if !contains(tp, "null") {
			s["type"] = append(tp, "null")
		}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func appendUnique(list any, add ...string) []string {
	out, _ := list.([]string)
	for _, a := range add {
		if !contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}
