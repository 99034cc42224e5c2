"""The credential detector: names and values that look like secrets; none of this repository's constants."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from docgen.core.credentials import OTHER_ENTROPY, credential_reason, entropy, name_words, text_reason

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("DB_PASSWORD", ["db", "password"]),
        ("apiKey", ["api", "key"]),
        ("APIKey", ["api", "key"]),
        ("MONKEY_COUNT", ["monkey", "count"]),
        ("oauth2-token", ["oauth", "2", "token"]),
    ],
)
def test_names_split_into_words(name: str, words: list[str]) -> None:
    assert name_words(name) == words


@pytest.mark.parametrize(
    "name",
    ["DB_PASSWORD", "PASSWD", "CLIENT_SECRET", "API_TOKEN", "API_KEY", "APIKEY", "apiKey", "PRIVATE_PEM",
     "CREDENTIALS", "AUTH_TOKENS", "SIGNING_KEYS"],
)  # fmt: skip
def test_a_secret_word_in_the_name_of_a_text_value_is_a_credential(name: str) -> None:
    assert credential_reason(name, "hunter2") is not None
    assert credential_reason(name, ["a", "hunter2"]) is not None


@pytest.mark.parametrize("name", ["MONKEY", "KEYBOARD_LAYOUT", "TOKENIZER", "SECRETARY", "MAX_QUERY_WORDS"])
def test_words_that_only_contain_a_secret_word_are_not(name: str) -> None:
    assert credential_reason(name, "plain") is None


def test_a_number_is_never_a_credential_whatever_its_name() -> None:
    assert credential_reason("MAX_TOKENS", 4096) is None
    assert credential_reason("KEY_COUNT", [1, 2]) is None
    assert credential_reason("PRIVATE", None) is None


@pytest.mark.parametrize(
    "value",
    [
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "AKIAIOSFODNN7EXAMPLE",
        "xoxb-263594206564-FGqddMF8t08v8N7Oq4i57vs1",
        "https://admin:hunter2@db.example.com/prod",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow",
        "jX_xl6ncfn9GURiDnJj_IK0db8lYrEeD",  # 32 URL-safe base64 characters
        "44046e16bf4e135a6a21ebd8ba2603df",  # 32 hex digits
    ],
)
def test_values_that_look_like_keys_are_credentials(value: str) -> None:
    assert credential_reason("SETTING", value) is not None
    assert credential_reason("SETTINGS", {"nested": [value]}) is not None


@pytest.mark.parametrize(
    "value",
    [
        "https://www.connectbyjbrh.com",
        "Read-only access to the public Connect documentation.",
        "2026-07-28",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "sk-",  # a prefix alone is too short to be a key
        "application/vnd.example+json",
    ],
)
def test_ordinary_text_is_not(value: str) -> None:
    assert text_reason(value) is None


def test_no_constant_of_this_repository_looks_like_a_credential() -> None:
    """The thresholds were measured on these: the highest string is the site's URL, under the threshold."""
    catalog = yaml.safe_load((REPO / "data/mcp-errors.yaml").read_text(encoding="utf-8"))
    flagged = {name: credential_reason(name, value) for name, value in catalog["constants"].items()}
    assert {name: reason for name, reason in flagged.items() if reason} == {}
    assert entropy("https://www.connectbyjbrh.com") < OTHER_ENTROPY


def test_entropy_is_in_bits_a_character() -> None:
    assert entropy("") == 0.0
    assert entropy("aaaa") == 0.0
    assert entropy("abcd") == pytest.approx(2.0)
