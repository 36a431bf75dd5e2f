"""The security domain's ecosystems: package keys that carry their ecosystem, and the versioning
scheme each ecosystem's name stands for.

Package keys carry their ecosystem ("pypi:django") because the same name means different
software in two ecosystems; the entity's ``name`` keeps the bare, human form ("django") for
matching questions (the domain's ``package`` name type displays keys after the colon).
"""

from __future__ import annotations

from packaging.utils import canonicalize_name

from car_graph.keys import normalize_key

# OSV ecosystem names (and the names the adapters use) -> a scheme of car_graph.versions.
# Matched case-insensitively; ":*" also covers the name with a release ("Debian:12", "Ubuntu:22.04").
VERSION_SCHEMES = {
    "pypi": "pypi",
    "go": "go",
    "npm": "npm",
    "nodejs": "npm",  # Node.js core releases are semver
    "crates.io": "cargo",
    "cargo": "cargo",
    "rust": "cargo",  # the Rust toolchain (RustSec rust/ advisories) is semver
    "semver": "cargo",
    "debian": "debian",
    "debian:*": "debian",
    "ubuntu": "debian",
    "ubuntu:*": "debian",
}


def package_key(ecosystem: str, name: str) -> str:
    return normalize_key(f"{ecosystem}:{name}")


def pkg_key(ecosystem: str, name: str) -> str:
    """package_key with the ecosystem's own name normalisation (PEP 503 for PyPI)."""
    if ecosystem.casefold() == "pypi":
        name = canonicalize_name(name)
    return package_key(ecosystem, name)
