"""The site's public address, set once in site.toml (sitebuild.config): none when empty, checked when given."""
from __future__ import annotations

import pytest

from sitebuild.config import ConfigError, public_url


@pytest.mark.unit
def test_an_empty_or_missing_address_is_none_and_a_good_one_is_kept(tmp_path):
    assert public_url(tmp_path) is None                          # no site.toml
    (tmp_path / "site.toml").write_text('url = ""\n')
    assert public_url(tmp_path) is None
    (tmp_path / "site.toml").write_text('url = "https://example.org/course/"\n')
    assert public_url(tmp_path) == "https://example.org/course/"


@pytest.mark.unit
@pytest.mark.parametrize("text,why", [('url = "example.org"', "is not a public address"),
                                       ("url = 3", "must be a string"),
                                       ("url = [", "not a TOML file")])
def test_a_bad_address_is_one_sentence_naming_the_file(tmp_path, text, why):
    (tmp_path / "site.toml").write_text(text + "\n")
    with pytest.raises(ConfigError) as caught:
        public_url(tmp_path)
    assert str(caught.value).startswith(str(tmp_path / "site.toml")) and why in str(caught.value)
