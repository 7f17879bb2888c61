"""This site's own temporary folder, which every temporary file of a build goes to."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path


def private_tmp_path(root: Path) -> Path:
    """This site's own temporary folder: short (Chromium keeps a socket in its profile there, and socket
    paths are limited to 108 bytes) and named after the site's folder, so no two sites share one."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    return Path(os.environ.get("SITEBUILD_SYSTEM_TMP", tempfile.gettempdir())) / f"sitebuild-{digest}"


def private_tmp(root: Path) -> None:
    """Send every temporary file of this build (Chromium profiles, Sphinx crash logs, ...) to the
    site's own temporary folder, emptied first: whatever a killed build left there goes with the next."""
    tmp = private_tmp_path(root)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    os.environ.setdefault("SITEBUILD_SYSTEM_TMP", tempfile.gettempdir())
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = None  # forget the cached default


def release_private_tmp(root: Path) -> None:
    """After a build that succeeded: remove the site's own temporary folder, and send temporary files to the
    system's folder again. (A failed build keeps it: Sphinx's crash log, which its error names, is there.)"""
    shutil.rmtree(private_tmp_path(root), ignore_errors=True)
    os.environ["TMPDIR"] = os.environ.get("SITEBUILD_SYSTEM_TMP", tempfile.gettempdir())
    tempfile.tempdir = None
