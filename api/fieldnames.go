package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// checkFieldNames refuses object keys that encoding/json would accept only
// because it matches field names without regard to case ("AMOUNT" for
// "amount"): the contract lists exact names, so any other spelling is an
// unknown field. raw is valid JSON already decoded once into a value of t.
//
// Most bodies spell every name exactly, and are passed without a second
// decoding: when every key in raw is spelled as a name of some struct of
// t, and no two of those names differ only in case, the field the first
// decoding matched to each key is the one spelled so.
func checkFieldNames(raw []byte, t reflect.Type) error {
	if names := exactNames(t); names != nil && keysAmong(raw, names) {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil // the first decode already judged the syntax
	}
	return walkNames(v, t, "")
}

func walkNames(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return nil
		}
		fields := jsonFields(t)
		for key, val := range x {
			ft, ok := fields[key]
			if !ok {
				return fmt.Errorf("unknown field %q%s (names are case-sensitive)", key, at(path))
			}
			if err := walkNames(val, ft, path+"."+key); err != nil {
				return err
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, item := range x {
				if err := walkNames(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// jsonFields maps a struct's exact JSON names to their types, following
// embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func at(path string) string {
	if path == "" {
		return ""
	}
	return " in " + strings.TrimPrefix(path, ".")
}

// namesByType holds exactNames' answers, by type.
var namesByType sync.Map // reflect.Type -> map[string]bool

// exactNames are the JSON names of every struct reachable from t, or nil
// when two of them differ only in case or one is not ASCII (then a key
// spelled as one may have matched the other).
func exactNames(t reflect.Type) map[string]bool {
	if v, ok := namesByType.Load(t); ok {
		return v.(map[string]bool)
	}
	names, folded := map[string]bool{}, map[string]string{}
	ambiguous := false
	var visit func(t reflect.Type)
	seen := map[reflect.Type]bool{}
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for name, ft := range jsonFields(t) {
			lower := strings.ToLower(name)
			if other, ok := folded[lower]; (ok && other != name) || !isASCII(name) {
				ambiguous = true
			}
			folded[lower], names[name] = name, true
			visit(ft)
		}
	}
	visit(t)
	if ambiguous {
		names = nil
	}
	namesByType.Store(t, names)
	return names
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// keysAmong says whether every object key in raw, valid JSON, is one of
// names as written (a key with an escape never is: the walk judges it).
func keysAmong(raw []byte, names map[string]bool) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		start, escaped := i+1, false
		for i++; i < len(raw) && raw[i] != '"'; i++ {
			if raw[i] == '\\' {
				escaped = true
				i++
			}
		}
		end := i
		j := i + 1
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
			j++
		}
		if j < len(raw) && raw[j] == ':' && (escaped || !names[string(raw[start:end])]) {
			return false
		}
	}
	return true
}
