package chain

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// This file encodes typed values canonically in one pass (Encode): an
// encoder per type, worked out once and cached.

// Encode writes v as canonical JSON in one pass, with the same field names,
// omitempty rules and string escaping as encoding/json (minus HTML
// escaping), but with every object's keys sorted and integers only. The
// encoder for each type is worked out once and cached.
func Encode(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	rv := reflect.ValueOf(v)
	return encoderFor(rv.Type())(make([]byte, 0, 256), rv)
}

// encoder appends one value of a type.
type encoder func(b []byte, v reflect.Value) ([]byte, error)

var encoders sync.Map // reflect.Type → encoder

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	numberType    = reflect.TypeFor[json.Number]()
)

// encoderFor returns the cached encoder of t, building it on first use.
// Encoders look up the encoders of their elements when they run, not when
// they are built, so a recursive type needs no special care.
func encoderFor(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	e, _ := encoders.LoadOrStore(t, newEncoder(t))
	return e.(encoder)
}

func newEncoder(t reflect.Type) encoder {
	switch {
	case t == numberType:
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendNumber(b, v.String()) }
	case t.Kind() != reflect.Pointer && t.Implements(jsonMarshaler):
		return marshalerEncoder
	case t.Kind() != reflect.Pointer && t.Implements(textMarshaler):
		return textEncoder
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendBool(b, v.Bool()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendInt(b, v.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) ([]byte, error) { return strconv.AppendUint(b, v.Uint(), 10), nil }
	case reflect.Float32, reflect.Float64:
		return floatEncoder
	case reflect.String:
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendString(b, v.String()), nil }
	case reflect.Interface:
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			e := v.Elem()
			return encoderFor(e.Type())(b, e)
		}
	case reflect.Pointer:
		elem := t.Elem()
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, "null"...), nil
			}
			return encoderFor(elem)(b, v.Elem())
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !t.Elem().Implements(jsonMarshaler) && !t.Elem().Implements(textMarshaler) {
			return bytesEncoder
		}
		return listEncoder(t, true)
	case reflect.Array:
		return listEncoder(t, false)
	case reflect.Map:
		return mapEncoder(t)
	case reflect.Struct:
		return structEncoder(t)
	}
	return func([]byte, reflect.Value) ([]byte, error) {
		return nil, fmt.Errorf("audit payload: cannot encode a %s", t)
	}
}

// marshalerEncoder encodes a value that marshals itself (json.RawMessage,
// time.Time) by canonicalizing what it marshals to.
func marshalerEncoder(b []byte, v reflect.Value) ([]byte, error) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		return append(b, "null"...), nil
	}
	raw, err := v.Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return nil, err
	}
	canon, err := Canonicalize(raw)
	if err != nil {
		return nil, err
	}
	return append(b, canon...), nil
}

func textEncoder(b []byte, v reflect.Value) ([]byte, error) {
	text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return nil, err
	}
	return appendString(b, string(text)), nil
}

// floatEncoder accepts whole numbers only, as the JSON reader would.
func floatEncoder(b []byte, v reflect.Value) ([]byte, error) {
	f := v.Float()
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<53 {
		return nil, fmt.Errorf("%w: %v", ErrNonInteger, f)
	}
	return strconv.AppendInt(b, int64(f), 10), nil
}

func bytesEncoder(b []byte, v reflect.Value) ([]byte, error) {
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v.Bytes())
	return append(b, '"'), nil
}

func listEncoder(t reflect.Type, nilIsNull bool) encoder {
	elem := t.Elem()
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if nilIsNull && v.IsNil() {
			return append(b, "null"...), nil
		}
		enc := encoderFor(elem)
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = enc(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
}

// mapEncoder writes a map with string, integer or text keys, sorted by the
// key as written.
func mapEncoder(t reflect.Type) encoder {
	key := t.Key()
	switch {
	case key.Kind() == reflect.String, key.Implements(textMarshaler):
	case key.Kind() >= reflect.Int && key.Kind() <= reflect.Uintptr:
	default:
		return func([]byte, reflect.Value) ([]byte, error) {
			return nil, fmt.Errorf("audit payload: cannot encode a map keyed by %s", key)
		}
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		type entry struct {
			key string
			val reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, err := mapKey(it.Key())
			if err != nil {
				return nil, err
			}
			entries = append(entries, entry{k, it.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		enc := encoderFor(t.Elem())
		b = append(b, '{')
		for i, e := range entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, e.key), ':')
			var err error
			if b, err = enc(b, e.val); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
}

// mapKey is a map key as encoding/json writes it.
func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		text, err := tm.MarshalText()
		return string(text), err
	}
	if k.Kind() >= reflect.Uint && k.Kind() <= reflect.Uintptr {
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return strconv.FormatInt(k.Int(), 10), nil
}

// field is one struct field as encoding/json would write it.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

// structEncoder writes a struct's fields sorted by their JSON names. The
// order is worked out once per type.
func structEncoder(t reflect.Type) encoder {
	fields, err := jsonFields(t, nil)
	if err != nil {
		return func([]byte, reflect.Value) ([]byte, error) { return nil, err }
	}
	slices.SortFunc(fields, func(a, b field) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(fields); i++ {
		if fields[i].name == fields[i-1].name {
			err := fmt.Errorf("audit payload: %s has two fields named %q", t, fields[i].name)
			return func([]byte, reflect.Value) ([]byte, error) { return nil, err }
		}
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		b = append(b, '{')
		first := true
		for _, f := range fields {
			fv, ok := fieldByIndex(v, f.index)
			if !ok || (f.omitEmpty && isEmpty(fv)) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(appendString(b, f.name), ':')
			var err error
			if b, err = encoderFor(fv.Type())(b, fv); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
}

// jsonFields lists the fields encoding/json writes for t, with embedded
// structs without a tag flattened into their parent.
func jsonFields(t reflect.Type, index []int) ([]field, error) {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		idx := append(slices.Clone(index), i)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				inner, err := jsonFields(ft, idx)
				if err != nil {
					return nil, err
				}
				out = append(out, inner...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if strings.Contains(","+opts+",", ",string,") {
			return nil, fmt.Errorf("audit payload: %s.%s uses the string option", t, sf.Name)
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	return out, nil
}

// fieldByIndex follows index through embedded pointers; a nil embedded
// pointer hides its fields, as in encoding/json.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
