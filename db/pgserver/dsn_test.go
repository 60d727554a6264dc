package pgserver

import "testing"

func TestWithDatabase(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://u:p@h:5/postgres?sslmode=disable", "postgres://u:p@h:5/x?sslmode=disable"},
		{"postgresql://h/db", "postgresql://h/x"},
		{"host=h dbname=postgres", "host=h dbname=postgres dbname=x"},
	}
	for _, tc := range cases {
		got, err := WithDatabase(tc.in, "x")
		if err != nil || got != tc.want {
			t.Errorf("WithDatabase(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
