# horologe: small image, non-root, health-checked. Build with the tag compose.yaml and deploy/k8s use (the
# package version): docker build -t ghcr.io/horologe/horologe:0.1.0 .
FROM python:3.11-slim AS build
WORKDIR /src
RUN pip install --no-cache-dir "uv>=0.5,<1"
COPY pyproject.toml uv.lock README.md LICENSE ./
COPY src ./src
RUN uv export --frozen --no-dev --extra fast --extra http --no-emit-project -o requirements.txt \
 && python -m venv /opt/horologe \
 && /opt/horologe/bin/pip install --no-cache-dir -r requirements.txt \
 && /opt/horologe/bin/pip install --no-cache-dir --no-deps .

FROM python:3.11-slim
LABEL org.opencontainers.image.title="horologe" org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="https://github.com/horologe/horologe"
RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin horologe
COPY --from=build /opt/horologe /opt/horologe
ENV PATH=/opt/horologe/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
USER 10001
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2).status == 200 else 1)"]
# Bound to all interfaces inside the container: the Host allow-list must be set (HOROLOGE_HTTP__ALLOWED_HOSTS).
ENTRYPOINT ["horologe", "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "8080"]
