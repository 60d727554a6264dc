package api

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// contentSecurityPolicy lets a page of this server run only the app's own
// files: its scripts and style sheets come from this origin and nowhere
// else, with no inline script or style attribute and no eval; the API and
// the live stream are on this origin too. The QR codes are SVG elements made
// by the script and the night's picture is a canvas, so images come only
// from here (the icons). The service worker and the manifest are the app's
// own, and no site may show Tally in a frame.
var contentSecurityPolicy = strings.Join([]string{
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self'",
	"connect-src 'self'",
	"worker-src 'self'",
	"manifest-src 'self'",
	"object-src 'none'",
	"base-uri 'none'",
	"form-action 'self'",
	"frame-ancestors 'none'",
}, "; ")

// permissionsPolicy allows the powerful features the app uses, for its own
// pages only: the screen kept on during a round (awake.js), the clipboard
// for a night's results (share.js), and the camera with the motion sensor
// (accelerometer and gyroscope: deviceorientation), for reading dice as
// from straight above the table (camera.js, level.js). Every
// other feature that could reach a player's location, microphone, money or
// devices is refused outright. Only features that browsers know are named,
// since a browser logs an error for every one it does not: not vibrate,
// which no browser governs by this policy (a buzz needs a recent tap
// instead), nor web-share, which only browsers with a share sheet know and
// which is this origin's alone by default.
var permissionsPolicy = strings.Join([]string{
	"camera=(self)",
	"screen-wake-lock=(self)",
	"clipboard-write=(self)",
	"accelerometer=(self)",
	"gyroscope=(self)",
	"clipboard-read=()",
	"display-capture=()",
	"fullscreen=()",
	"geolocation=()",
	"hid=()",
	"idle-detection=()",
	"magnetometer=()",
	"microphone=()",
	"midi=()",
	"payment=()",
	"publickey-credentials-get=()",
	"serial=()",
	"usb=()",
	"xr-spatial-tracking=()",
}, ", ")

// securityHeaders go out with every answer of the server.
//
// Referrer-Policy is no-referrer rather than same-origin: the app never
// needs a Referer, not even from its own origin (the server reads none), and
// its addresses carry join and recovery codes, so none is ever sent.
// X-Frame-Options repeats frame-ancestors for browsers too old for it.
var securityHeaders = map[string]string{
	"Content-Security-Policy": contentSecurityPolicy,
	"Permissions-Policy":      permissionsPolicy,
	"Referrer-Policy":         "no-referrer",
	"X-Content-Type-Options":  "nosniff",
	"X-Frame-Options":         "DENY",
}

// secureHeaders writes securityHeaders before anything else runs, so every
// response carries them whoever writes it: a handler, the app's file server,
// the live stream, the problem for an error or a panic, and a 404 or 405 of
// the router.
func secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for name, value := range securityHeaders {
			h.Set(name, value)
		}
		return next(c)
	}
}
