// Package qrtest reads QR codes back for the tests, with ZXing's decoder
// (gozxing), written apart from the encoder Tally draws them with: what a
// banking app's camera would read.
package qrtest

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Decode reads the text of the QR code in a PNG image.
func Decode(raw []byte) (string, error) {
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"})
	if err != nil {
		return "", fmt.Errorf("qrtest: the QR code does not decode: %w", err)
	}
	return res.GetText(), nil
}
