# tablebot in a container: docker build -t tablebot . && docker run -e TELEGRAM_BOT_TOKEN=… -v tablebot:/data tablebot
# The image is built from this repository; the only network it needs is the package index.

# Wheels of the bot and of every dependency, built where the build tools are.
FROM python:3.12-slim AS wheels
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
# Installed from the wheels only (no index, no compiler); nothing of the sources stays.
RUN --mount=type=bind,from=wheels,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links=/wheels tablebot \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tablebot \
    && mkdir /data && chown tablebot:tablebot /data
USER tablebot
WORKDIR /data
# The SQLite database lives on the volume (TABLEBOT_DB=postgresql://… uses PostgreSQL instead).
# /healthz and /metrics listen on METRICS_PORT, inside the container's network only unless
# published; PORT takes the webhook (WEBHOOK_URL) behind a TLS-terminating proxy.
ENV TABLEBOT_DB=/data/tablebot.sqlite3 \
    METRICS_PORT=9090 \
    PORT=8443 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
VOLUME /data
EXPOSE 8443
# 200 while the bot polls or takes its webhook and the database answers (bot/ops/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['METRICS_PORT'], timeout=4)"]
# SIGTERM (docker stop) ends the bot in order: pending edits go out, then it exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
