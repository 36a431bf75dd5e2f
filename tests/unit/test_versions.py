import pytest

from car_graph import versions as v


def test_pypi_equal_spellings_share_one_canonical_string():
    assert v.canonical("pypi", "1.0") == v.canonical("pypi", "1.0.0")
    assert v.compare("pypi", "1.0", "1.0.0") == 0
    assert v.canonical("PyPI", "4.2.7") == "4.2.7"


def test_pypi_prerelease_orders_before_release():
    assert v.compare("pypi", "2.0rc1", "2.0") == -1
    assert sorted(["1.10", "1.9", "1.0rc1", "1.0"], key=v.sort_key("pypi")) == [
        "1.0rc1", "1.0", "1.9", "1.10"
    ]


def test_invalid_versions_raise_a_value_error_subclass():
    with pytest.raises(v.InvalidVersionError) as info:
        v.canonical("pypi", "2019-09-12")
    assert isinstance(info.value, ValueError)
    assert "pypi" in str(info.value) and "2019-09-12" in str(info.value)
    with pytest.raises(ValueError):
        v.canonical("cargo", "1.2")  # semver needs three components
    with pytest.raises(ValueError):
        v.canonical("debian", "")


def test_semver_ecosystems():
    assert v.compare("npm", "1.2.3-alpha", "1.2.3") == -1
    assert v.canonical("npm", "v1.2.3") == "1.2.3"
    assert v.canonical("crates.io", "0.9.1") == "0.9.1"
    assert v.compare("cargo", "0.10.0", "0.9.1") == 1


def test_debian_epochs_and_revisions():
    assert v.compare("debian", "3:3.2.25-0+deb12u7", "2:9.0") == 1
    assert v.canonical("debian", "0:1.0-0") == v.canonical("debian", "1.0") == "1.0"
    assert v.canonical("Debian:12", "3:3.2.25-0+deb12u7") == "3:3.2.25-0+deb12u7"
    assert v.compare("debian", "1.00", "1.0") == 0
    assert v.canonical("debian", "1.00") == v.canonical("debian", "1.0")


def test_go_toolchain_and_module_versions():
    assert v.canonical("go", "go1.21.3") == v.canonical("Go", "1.21.3") == "1.21.3"
    assert v.canonical("go", "go1.21") == v.canonical("go", "1.21.0") == "1.21.0"
    assert v.canonical("go", "1.21rc2") == "1.21.0-rc.2"  # the OSV spelling
    assert v.compare("go", "go1.21rc2", "go1.21.0") == -1
    assert v.compare("go", "go1.9", "go1.10") == -1
    assert v.canonical("go", "v1.6.0") == "1.6.0"
    pseudo = "v0.0.0-20220314234659-1baeb1ce4c0b"
    assert v.canonical("go", pseudo) == pseudo[1:]


def test_ranges_use_the_libraries():
    assert v.range_lower_bounds("npm", "^8.1.4 || ^7.10.1") == ["7.10.1", "8.1.4"]
    assert v.range_lower_bounds("npm", ">= 1.4.6 < 2.0.0 || >= 2.0.1") == ["1.4.6", "2.0.1"]
    assert v.range_lower_bounds("npm", ">=v2.0.0-alpha8") == ["2.0.0-alpha8"]
    assert v.range_lower_bounds("npm", "> 2.4.3") == []  # exclusive: no fixed version named
    assert v.range_lower_bounds("cargo", ">= 0.9.1, < 1.0.0") == ["0.9.1"]
    assert v.in_range("npm", "1.5.2", ">= 1.5.2")
    assert not v.in_range("npm", "1.5.1", ">=1.5.2")
    assert v.in_range("pypi", "1.0", ">=1.0,<2")
    with pytest.raises(v.InvalidVersionError):
        v.parse_range("npm", "not a range !!")


def test_scheme_names():
    assert v.scheme_for("PyPI") == "pypi"
    assert v.scheme_for("crates.io") == "cargo"
    assert v.scheme_for("Debian:12") == "debian"
    with pytest.raises(v.UnknownSchemeError):
        v.scheme_for("Maven")
