"""The site's addresses as QR codes a phone reads off paper: SVG files beside the print's source (segno)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import segno


def codes(addresses: list[str], out_dir: Path, root: Path) -> list[str]:
    """One SVG per address under out_dir, named by its address; their paths from the Typst root."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for address in addresses:
        name = f"qr-{hashlib.sha256(address.encode()).hexdigest()[:12]}.svg"
        svg = segno.make(address, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=4)
        target = out_dir / name
        if not target.exists() or target.read_text() != svg:
            target.write_text(svg)
        paths.append("/" + target.resolve().relative_to(root.resolve()).as_posix())
    return paths
