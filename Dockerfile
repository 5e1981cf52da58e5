# Build stage: compile a release binary with the official Swift image.
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product hearth --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/hearth" /hearth

# Run stage: a slim Debian with the binary, the migrations, schema.graphql and the household app, as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates tzdata libcurl4 libxml2 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 1000 --home-dir /var/lib/hearth --create-home hearth
COPY --from=build /hearth /usr/local/bin/hearth
COPY migrations /usr/share/hearth/migrations
COPY schema.graphql /usr/share/hearth/schema.graphql
COPY web /usr/share/hearth/web
USER hearth
WORKDIR /var/lib/hearth
ENV HEARTH_HOST=0.0.0.0 HEARTH_PORT=8080
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/hearth"]
CMD ["serve"]
