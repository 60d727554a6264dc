# tallyd in a small image. The compose file runs it next to PostgreSQL with
# DATABASE_URL set, so the image needs no PostgreSQL binaries of its own.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tallyd ./cmd/tallyd

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tallyd /tallyd
ENV TALLY_ADDR=:8080
EXPOSE 8080 80 443
USER nonroot:nonroot
ENTRYPOINT ["/tallyd"]
CMD ["serve"]
