package pay

import (
	"image"
	"image/png"
	"io"
)

// encodePNG writes an image as PNG at the best compression: a QR code is
// two colours and compresses to little.
func encodePNG(w io.Writer, img image.Image) error {
	e := png.Encoder{CompressionLevel: png.BestCompression}
	return e.Encode(w, img)
}
