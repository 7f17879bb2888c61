"""The project's settings (site.toml at its root): the site's public address, set once for every build."""
from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

FILE = "site.toml"


class ConfigError(Exception):
    """site.toml cannot be read, or holds a value the build cannot use; names the file and the value."""


def site_url(text: str) -> str:
    """A public address (site.toml's url, or --url): http(s)://host[:port]/path/, ending in '/'."""
    m = re.fullmatch(r"https?://[A-Za-z0-9.-]+(?::\d+)?(?P<path>/(?:[A-Za-z0-9._~-]+/)*)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a site address like https://example.org/project/ "
                                         "(http or https, ending in '/')")
    return text


def public_url(root: Path) -> str | None:
    """The site's public address from site.toml (None when it is empty or the file is absent)."""
    path = root / FILE
    if not path.exists():
        return None
    try:
        value = tomllib.loads(path.read_text(encoding="utf-8")).get("url", "")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not a TOML file the build can read ({exc})") from None
    if not isinstance(value, str):
        raise ConfigError(f"{path}: url must be a string of the form https://host/path/, not {value!r}")
    if not value.strip():
        return None
    try:
        return site_url(value.strip())
    except Exception as exc:
        raise ConfigError(f"{path}: url {value!r} is not a public address: {exc}") from None
