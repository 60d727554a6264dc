package api

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// authKey is where authenticate leaves the request's table and token.
const authKey = "tally.auth"

// authenticate guards every /v1/tables/:tableId route: it reads the table id
// and the bearer token, which the service checks with the request (a
// missing or unknown token is 401, a token of another table 403).
func (s *server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return authenticateBy("tableId")(next)
}

// authenticateBy is authenticate for routes that name the table by another
// path parameter: a crew (a table whose game is crew) by :crewId.
func authenticateBy(param string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if c.Param(param) == "" || strings.HasSuffix(c.Path(), "/*") {
				return unrouted(c)
			}
			tableID, err := pathID(c, param)
			if err != nil {
				return err
			}
			token, ok := bearer(c)
			if !ok {
				return fail(kindUnauthorized, "send the table's token as `Authorization: Bearer <token>`")
			}
			c.Set(authKey, table.Auth{TableID: tableID, Token: token})
			return next(c)
		}
	}
}

// auth is the table and token authenticate read.
func auth(c echo.Context) table.Auth {
	a, _ := c.Get(authKey).(table.Auth)
	return a
}

// bearer reads the token of an `Authorization: Bearer` header. The live
// stream also takes it as ?access_token=, because a browser's EventSource
// cannot send headers.
func bearer(c echo.Context) (string, bool) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if h == "" && strings.HasSuffix(c.Path(), "/stream") && c.QueryParam("access_token") != "" {
		return c.QueryParam("access_token"), true
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// pathID parses a positive integer path parameter.
func pathID(c echo.Context, name string) (int64, error) {
	raw := c.Param(name)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, fail(kindNotFound, fmt.Sprintf("%s %q is not an id (a positive whole number)", name, raw))
	}
	return id, nil
}

// unrouted answers a request that matches no route of the table group.
// Echo sends such requests through the group's middleware by way of a
// catch-all (with the path parameters left empty), so without this a wrong
// method on a table route was answered as a bad table id. It is 405 when the
// path is routed for other methods, else 404, and asks for no token.
func unrouted(c echo.Context) error {
	var allow []string
	for _, r := range c.Echo().Routes() {
		if r.Method != echo.RouteNotFound && !strings.HasSuffix(r.Path, "/*") && routeMatches(r.Path, c.Request().URL.Path) {
			allow = append(allow, r.Method)
		}
	}
	if len(allow) == 0 {
		return errNotFoundRoute
	}
	c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
	return errMethodNotAllow
}

// routeMatches reports whether path fits an Echo route pattern whose
// :params each stand for one non-empty segment.
func routeMatches(pattern, path string) bool {
	ps, qs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(qs) {
		return false
	}
	for i, p := range ps {
		if strings.HasPrefix(p, ":") && qs[i] != "" || p == qs[i] {
			continue
		}
		return false
	}
	return true
}
