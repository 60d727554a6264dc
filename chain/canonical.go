package chain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Canonicalize re-encodes a JSON document canonically: a payload read back
// from storage that may have reordered its keys or respelled its numbers.
func Canonicalize(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("audit payload: %w", err)
	}
	return appendDecoded(make([]byte, 0, len(raw)), v)
}

// appendDecoded writes a value decoded from JSON with UseNumber.
func appendDecoded(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return appendString(b, v), nil
	case json.Number:
		return appendNumber(b, string(v))
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendDecoded(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			var err error
			if b, err = appendDecoded(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("audit payload: unexpected %T", v)
}

// appendNumber writes a JSON number as a plain decimal integer: 1E2 is 100,
// 7.0 is 7 and -0 is 0; 1.5 is ErrNonInteger.
func appendNumber(b []byte, s string) ([]byte, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.AppendInt(b, n, 10), nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return nil, fmt.Errorf("%w: %s", ErrNonInteger, s)
	}
	return r.Num().Append(b, 10), nil
}

// appendString writes s as encoding/json does with HTML escaping off. Plain
// ASCII without quotes, backslashes or control characters, which is almost
// every name and kind, is written as it is.
func appendString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
