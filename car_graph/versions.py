"""Version strings per ecosystem, canonicalised and ordered by each ecosystem's own library.

Supersession rules compare versions as strings in Cypher (``attr_version IN attr_fixed_versions``),
so every adapter writes versions through :func:`canonical`: two spellings of one version
('1.0' / '1.0.0' on PyPI, 'go1.21.3' / '1.21.3' for the Go toolchain, '0:1.2-1' / '1.2-1' on
Debian) become one string. Ordering is never hand-rolled:

* ``pypi``  -- :mod:`packaging.version` (PEP 440); canonical form is
  :func:`packaging.utils.canonicalize_version` (trailing zero components stripped: '1.0.0' -> '1').
* ``go``    -- :mod:`semantic_version`. Module versions lose their leading 'v'. Go toolchain
  versions ('go1.21.3', '1.21', 'go1.21rc2') are first spelled as the semver the Go vulnerability
  database uses in OSV ('1.21.3', '1.21.0', '1.21.0-rc.2').
* ``npm``, ``cargo`` -- :mod:`semantic_version` (strict semver; npm tolerates a leading 'v' / '=').
  Ranges: :class:`semantic_version.NpmSpec` for npm, :class:`semantic_version.SimpleSpec` for
  Cargo requirements.
* ``debian`` -- :class:`debian.debian_support.Version`; a zero epoch and a revision equal to '0'
  are dropped and leading zeros of numeric runs removed (dpkg compares those numerically), so
  the canonical string compares equal to the input under dpkg rules.

A scheme can be named directly or by a name a domain's sources use for it (the security domain
maps OSV ecosystem names such as 'PyPI', 'crates.io' or 'Debian:12'), see :func:`scheme_for`;
those names are each installed domain's ``version_schemes``.
"""

from __future__ import annotations

import functools
import re
from functools import cmp_to_key
from typing import Any

import semantic_version
from debian import debian_support
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_version
from packaging.version import InvalidVersion
from packaging.version import Version as PyPIVersion

from car_graph.domains import DomainRegistry

SCHEMES = ("pypi", "go", "npm", "cargo", "debian")


@functools.cache
def _named_schemes() -> dict[str, str]:
    """The installed domains' names for schemes (case-folded), read once per process."""
    return DomainRegistry.installed().version_schemes()


class InvalidVersionError(ValueError):
    """A version (or range) string the ecosystem's own library cannot parse."""

    def __init__(self, scheme: str, version: Any, reason: str = "") -> None:
        self.scheme, self.version, self.reason = scheme, version, reason
        super().__init__(
            f"not a valid {scheme} version: {version!r}" + (f" ({reason})" if reason else "")
        )


class UnknownSchemeError(ValueError):
    def __init__(self, scheme: str) -> None:
        self.scheme = scheme
        super().__init__(f"unknown versioning scheme {scheme!r}; known: {', '.join(SCHEMES)}")


def scheme_for(name: str) -> str:
    """A scheme from its own name or a name a domain gives it ('PyPI' -> 'pypi',
    'Debian:12' -> 'debian' through a domain's "debian:*")."""
    key = name.strip().casefold()
    if key in SCHEMES:
        return key
    named = _named_schemes()
    if key in named:
        return named[key]
    base = key.split(":", 1)[0]
    if f"{base}:*" in named:
        return named[f"{base}:*"]
    raise UnknownSchemeError(name)


# --- Go toolchain spelling -> semver -------------------------------------------------------------

# go1.21.3, 1.21.3, go1.21, 1.21rc2, go1.9beta1 (the toolchain's own spelling, not module semver)
_GO_TOOLCHAIN = re.compile(r"^(?:go)?(\d+)\.(\d+)(?:\.(\d+))?(?:(rc|beta|alpha)(\d+))?$")


def _go_semver(version: str) -> str:
    text = version.strip()
    match = _GO_TOOLCHAIN.match(text)
    if match:
        major, minor, patch, pre, number = match.groups()
        out = f"{major}.{minor}.{patch or 0}"
        return f"{out}-{pre}.{number}" if pre else out
    if text.startswith("go"):
        text = text[2:]
    return text[1:] if text.startswith("v") else text


# --- parsing -------------------------------------------------------------------------------------


def parse(scheme: str, version: str) -> Any:
    """The library's version object (packaging / semantic_version / debian_support)."""
    scheme = scheme_for(scheme)
    if not isinstance(version, str) or not version.strip():
        raise InvalidVersionError(scheme, version, "empty")
    text = version.strip()
    try:
        if scheme == "pypi":
            return PyPIVersion(text)
        if scheme == "debian":
            return debian_support.Version(text)
        if scheme == "go":
            return semantic_version.Version(_go_semver(text))
        if scheme == "npm":
            return semantic_version.Version(text.lstrip("=v").strip())
        return semantic_version.Version(text)  # cargo
    except (InvalidVersion, ValueError) as e:
        raise InvalidVersionError(scheme, version, str(e)) from e


def _debian_canonical(v: debian_support.Version) -> str:
    def numbers(part: str) -> str:
        return re.sub(r"\d+", lambda m: str(int(m.group())), part)

    out = numbers(v.upstream_version or "")
    revision = v.debian_revision
    if revision and debian_support.version_compare(f"0-{revision}", "0") != 0:
        out += "-" + numbers(revision)
    if v.epoch and int(v.epoch) != 0:
        out = f"{int(v.epoch)}:{out}"
    return out


def canonical(scheme: str, version: str) -> str:
    """One string per version: equal versions (under the scheme) give equal strings."""
    scheme = scheme_for(scheme)
    parsed = parse(scheme, version)
    if scheme == "pypi":
        return canonicalize_version(parsed)
    if scheme == "debian":
        out = _debian_canonical(parsed)
        # the rewrite must not change the version under dpkg's own ordering
        if debian_support.version_compare(out, str(parsed)) != 0:  # pragma: no cover
            raise InvalidVersionError(scheme, version, "canonical form compares unequal")
        return out
    return str(parsed)


def canonical_or_none(scheme: str, version: str) -> str | None:
    try:
        return canonical(scheme, version)
    except InvalidVersionError:
        return None


def compare(scheme: str, a: str, b: str) -> int:
    """-1, 0 or 1 as a < b, a == b, a > b under the scheme."""
    scheme = scheme_for(scheme)
    if scheme == "debian":
        parse(scheme, a), parse(scheme, b)  # validate both
        result = debian_support.version_compare(a.strip(), b.strip())
        return (result > 0) - (result < 0)
    va, vb = parse(scheme, a), parse(scheme, b)
    return (va > vb) - (va < vb)


def sort_key(scheme: str) -> Any:
    """A ``key=`` for sorted(): ``sorted(versions, key=sort_key('pypi'))``."""
    scheme = scheme_for(scheme)
    return cmp_to_key(lambda a, b: compare(scheme, a, b))


# --- ranges --------------------------------------------------------------------------------------

# node-semver and Cargo allow blanks between an operator and its version ('>= 1.0.4');
# semantic_version does not, so they are closed up (and node-semver's loose 'v' prefix dropped)
# before the library parses the range.
_OP_BLANK = re.compile(r"(<=|>=|<|>|=|\^|~)\s*v?(?=\d)")


def parse_range(scheme: str, spec: str) -> Any:
    """The library's range object: NpmSpec (npm), SimpleSpec (cargo, go), SpecifierSet (pypi)."""
    scheme = scheme_for(scheme)
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidVersionError(scheme, spec, "empty range")
    text = _OP_BLANK.sub(r"\1", spec.strip())
    try:
        if scheme == "npm":
            return semantic_version.NpmSpec(text)
        if scheme in ("cargo", "go"):
            return semantic_version.SimpleSpec(re.sub(r"\s*,\s*", ",", text))
        if scheme == "pypi":
            return SpecifierSet(text)
    except (ValueError, InvalidSpecifier) as e:
        raise InvalidVersionError(scheme, spec, f"bad range: {e}") from e
    raise InvalidVersionError(scheme, spec, "ranges are not supported for this scheme")


def in_range(scheme: str, version: str, spec: str) -> bool:
    """Whether ``version`` satisfies the range ``spec`` (npm / Cargo / PEP 440 syntax)."""
    scheme = scheme_for(scheme)
    rng = parse_range(scheme, spec)
    v = parse(scheme, version)
    if scheme == "pypi":
        return rng.contains(v, prereleases=True)
    return v in rng


def range_lower_bounds(scheme: str, spec: str) -> list[str]:
    """The inclusive lower bounds of each alternative of a semver range, canonical.

    ``'^8.1.4 || ^7.10.1'`` -> ``['7.10.1', '8.1.4']``; used to read "first fixed" versions out of
    a *patched* range. Exclusive bounds ('> 2.4.3') name no fixed version and are skipped.
    """
    scheme = scheme_for(scheme)
    if scheme not in ("npm", "cargo", "go"):
        raise InvalidVersionError(scheme, spec, "lower bounds are read from semver ranges only")
    bounds: list[str] = []
    # each '||' alternative on its own: node-semver's prerelease policy makes the library add
    # a second branch to '>=2.0.0-alpha8' (">=2.0.0"), so keep the lowest bound per alternative
    for alternative in spec.split("||"):
        found: list[str] = []
        _lower_bounds(parse_range(scheme, alternative).clause, found)
        if found:
            bounds.append(min(found, key=sort_key(scheme)))
    return sorted(dict.fromkeys(bounds), key=sort_key(scheme))


def _lower_bounds(clause: Any, found: list[str]) -> None:
    """The ``>=`` and ``==`` targets of a parsed range, depth first."""
    if hasattr(clause, "clauses"):
        for sub in clause.clauses:
            _lower_bounds(sub, found)
    elif getattr(clause, "operator", None) in (">=", "=="):
        found.append(str(clause.target))
