"""The one web server (bot/ops/web.py): routes added by others, the operator's routes kept off the
public port, one socket when the ports are the same, a port in use told in one line."""
from __future__ import annotations

import socket

import aiohttp
import pytest
from aiohttp import web

from bot.ops.web import PortUnavailable, WebServer
from tests.bot.webapp_client import free_port


async def _hello(request: web.Request) -> web.Response:
    return web.Response(text="hello")


async def _secret(request: web.Request) -> web.Response:
    return web.Response(text="numbers")


async def _get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}{path}") as response:
            return response.status, await response.text()


async def test_the_operators_routes_are_not_served_on_the_public_port():
    server = WebServer(port=0, metrics_port=0, host="127.0.0.1")
    server.add_routes([web.get("/hello", _hello)])
    server.add_routes([web.get("/metrics", _secret)], private=True)
    sub = web.Application()
    sub.add_routes([web.get("/page", _hello)])
    server.mount("/app", sub)
    await server.start()
    try:
        assert server.public_port != server.private_port
        assert await _get(server.public_port, "/hello") == (200, "hello")
        assert await _get(server.public_port, "/app/page") == (200, "hello")
        assert (await _get(server.public_port, "/metrics"))[0] == 404
        assert await _get(server.private_port, "/metrics") == (200, "numbers")
    finally:
        await server.stop()


async def test_one_port_for_both_serves_everything_on_one_socket():
    port = free_port()
    server = WebServer(port=port, metrics_port=port, host="127.0.0.1")
    server.add_routes([web.get("/hello", _hello)])
    server.add_routes([web.get("/metrics", _secret)], private=True)
    await server.start()
    try:
        assert server.public_port == server.private_port == port
        assert await _get(port, "/hello") == (200, "hello")
        assert await _get(port, "/metrics") == (200, "numbers")
    finally:
        await server.stop()


async def test_nothing_listens_when_nothing_is_served_there():
    server = WebServer(port=0, metrics_port=None, host="127.0.0.1")
    server.add_routes([web.get("/metrics", _secret)], private=True)  # no METRICS_PORT: not served
    await server.start()
    assert server.public_port is None and server.private_port is None
    await server.stop()


async def test_a_port_in_use_is_one_clear_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        server = WebServer(port=None, metrics_port=port, host="127.0.0.1")
        server.add_routes([web.get("/metrics", _secret)], private=True)
        with pytest.raises(PortUnavailable, match=f"METRICS_PORT {port}"):
            await server.start()
