package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// checkFieldNames refuses object keys that encoding/json would accept only
// because it matches field names without regard to case ("AMOUNT" for
// "amount"): the contract lists exact names, so any other spelling is an
// unknown field. raw is valid JSON already decoded once into a value of t.
func checkFieldNames(raw []byte, t reflect.Type) error {
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
