"""Serve a folder over HTTP on 127.0.0.1 from a background thread."""

from __future__ import annotations

import functools
import sys
import threading
from contextlib import contextmanager
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator


class _QuietHandler(SimpleHTTPRequestHandler):
    def __init__(self, *args, not_found_page: Path | None = None, **kwargs):
        self.not_found_page = not_found_page  # served with status 404 for a missing file
        super().__init__(*args, **kwargs)  # handles the request

    def log_message(self, format, *args):  # no access log on stderr
        pass

    def send_error(self, code, message=None, explain=None):
        page = self.not_found_page
        if code != HTTPStatus.NOT_FOUND or page is None or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that closes a connection mid-response (a page closed while its favicon or a
        font loads) is no error of ours; anything else is reported as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def serve(folder: Path, not_found: str | None = None) -> Iterator[str]:
    """Serve `folder` on a free local port; yields the base URL (ending in '/').

    With `not_found` (e.g. "404.html"), a request for a missing file gets that
    page of `folder` with status 404, as a static host configured for it does.
    """
    page = folder / not_found if not_found else None
    handler = functools.partial(_QuietHandler, directory=str(folder), not_found_page=page)
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
