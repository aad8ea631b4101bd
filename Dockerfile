# agui-relay (and the demo agent, for deploy/compose.yaml) as containers: a
# static Go build (CGO_ENABLED=0) on distroless's static image, run as its
# non-root user. docs/relay.md, "Operating".
#
#   docker build -t agui-relay --build-arg VERSION="$(git describe --always --dirty)" .
#   docker build -t agui-demo --target demo .
#
# Every flag is also an environment variable (AGUI_RELAY_<FLAG>); the image
# sets the listen address, the store and JSON logs.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/agui-relay ./cmd/agui-relay
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/agui-demo ./cmd/agui-demo
# The store's directory, owned by distroless's nonroot user (65532).
RUN mkdir -p /out/data /out/web

# The demo agent: recorded AG-UI runs (testdata/scenarios) as an upstream.
FROM gcr.io/distroless/static-debian12:nonroot AS demo
COPY --from=build /out/agui-demo /agui-demo
COPY --from=build /src/testdata/scenarios /scenarios
COPY --from=build /out/web /web
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/agui-demo", "-addr", ":8080", "-scenarios", "/scenarios", "-web", "/web"]

# The relay (the default target).
FROM gcr.io/distroless/static-debian12:nonroot AS relay
COPY --from=build /out/agui-relay /agui-relay
COPY --from=build --chown=65532:65532 /out/data /data
USER nonroot:nonroot
ENV AGUI_RELAY_ADDR=:8090 \
    AGUI_RELAY_STORE=bolt:/data/agui-relay.db \
    AGUI_RELAY_LOG_FORMAT=json
VOLUME /data
EXPOSE 8090 9090
ENTRYPOINT ["/agui-relay"]
