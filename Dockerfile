# horologe's image: small, non-root, the base pinned by digest. By default it serves MCP over stdio, as MCP clients
# run images (docker run -i --rm IMAGE); `serve --transport http` serves Streamable HTTP on $HOST:$PORT (0.0.0.0:8080
# here, so the Host allow-list HOROLOGE_HTTP__ALLOWED_HOSTS must be set). A release builds from `make image-context`
# (dist/image/, where VERSION and REVISION are filled in): docker build -t ghcr.io/choose.an.owner/horologe:VERSION dist/image
# Refresh the base: docker buildx imagetools inspect python:3.11-slim-bookworm (the index digest).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91

FROM ${PYTHON_IMAGE} AS build
WORKDIR /src
RUN pip install --no-cache-dir "uv>=0.5,<1"
COPY pyproject.toml uv.lock README.md LICENSE ./
COPY src ./src
RUN uv export --frozen --no-dev --extra fast --extra http --no-emit-project -o requirements.txt \
 && python -m venv /opt/horologe \
 && /opt/horologe/bin/pip install --no-cache-dir -r requirements.txt \
 && /opt/horologe/bin/pip install --no-cache-dir --no-deps .

FROM ${PYTHON_IMAGE}
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="horologe" \
      org.opencontainers.image.description="An MCP server for time: now anywhere, timezone conversion, durations, calendars, DST done right." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/choose.an.owner/horologe" \
      org.opencontainers.image.licenses="MIT" \
      io.modelcontextprotocol.server.name="io.github.choose.an.owner/horologe"
RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin horologe
COPY --from=build /opt/horologe /opt/horologe
ENV PATH=/opt/horologe/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8080
USER 10001
EXPOSE 8080
ENTRYPOINT ["horologe"]
